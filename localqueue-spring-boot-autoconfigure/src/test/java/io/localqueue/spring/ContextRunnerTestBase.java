package io.localqueue.spring;

import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Base of tests that run auto-configurations in an {@link ApplicationContextRunner}, with a temporary directory. */
public abstract class ContextRunnerTestBase {

    @TempDir
    protected Path dir;

    /** The runner with the auto-configurations under test and nothing else. */
    protected final ApplicationContextRunner runner;

    /** Runs {@link LocalQueueAutoConfiguration} alone. */
    protected ContextRunnerTestBase() {
        this(LocalQueueAutoConfiguration.class);
    }

    protected ContextRunnerTestBase(Class<?>... autoConfigurations) {
        runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(autoConfigurations));
    }

    /** The runner with the queue file in the temporary directory. */
    protected ApplicationContextRunner onTempDir() {
        return runner.withPropertyValues("localqueue.path=" + dir);
    }
}
