package io.localqueue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.test.context.ContextCustomizer;

class LocalQueueTestAutoConfigurationTest {

    @TempDir
    Path dir;

    private final TemporaryQueueDirectoryCustomizerFactory factory = new TemporaryQueueDirectoryCustomizerFactory();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LocalQueueAutoConfiguration.class,
                    LocalQueueTestAutoConfiguration.class));

    @Test
    void theTemporaryDirectoryHoldsTheQueueFileAndGoesWithTheContext() {
        ContextCustomizer customizer = factory.createContextCustomizer(Annotated.class, List.of());
        AtomicReference<Path> directory = new AtomicReference<>();

        runner.withInitializer(context -> customizer.customizeContext(context, null)).run(context -> {
            directory.set(context.getBean(LocalQueueTestSupport.class).directory());
            context.getBean(LocalQueueTemplate.class).put("jobs", "one");
            assertThat(Files.exists(directory.get().resolve("localqueue.db"))).isTrue();
        });

        assertThat(directory.get()).doesNotExist();
    }

    @Test
    void onlyAnnotatedTestClassesAndTheirNestedClassesGetADirectory() {
        ContextCustomizer annotated = factory.createContextCustomizer(Annotated.class, List.of());

        assertThat(annotated).isNotNull();
        assertThat(factory.createContextCustomizer(Annotated.Inner.class, List.of())).isEqualTo(annotated);
        assertThat(factory.createContextCustomizer(Plain.class, List.of())).isNull();
    }

    @Test
    void anApplicationClockBeanRunsTheQueuesAndTheKitSaysSo() {
        Clock own = Clock.systemUTC();
        runner.withPropertyValues("localqueue.path=" + dir)
                .withBean(Clock.class, () -> own).run(context -> {
                    assertThat(context).doesNotHaveBean(TestClock.class);
                    assertThatThrownBy(() -> context.getBean(LocalQueueTestSupport.class).clock())
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("defines a java.time.Clock bean of its own");
                });
    }

    @Test
    void withoutInlineModeTheTemplateIsLocalqueuesOwn() {
        ContextCustomizer customizer = factory.createContextCustomizer(Annotated.class, List.of());
        runner.withInitializer(context -> customizer.customizeContext(context, null)).run(context -> {
            assertThat(context.getBean(LocalQueueTemplate.class)).isExactlyInstanceOf(LocalQueueTemplate.class);
            assertThat(context).hasSingleBean(TestClock.class);
        });
    }

    @AutoConfigureLocalQueue
    static class Annotated {
        @Nested
        class Inner {
        }
    }

    static class Plain {
    }
}
