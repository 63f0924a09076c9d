package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.listener.QueueListenerConfigurationException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.util.Throwables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A listener setting the worker refuses ends the start before any lifecycle bean, a web server's included, starts. */
@ExtendWith(OutputCaptureExtension.class)
class QueueListenerConfigurationFailureTest extends ContextRunnerTestBase {

    @Test
    void eachRefusedListenerSettingNamesItsPropertyAndStopsTheStartBeforeLifecycleBeansStart() {
        assertRefused("localqueue.listener.heartbeat-interval", "2m", "heartbeatInterval");
    }

    @Test
    void aDefaultNoListenerCouldRunWithIsRefusedAsAPropertyEvenWhenEveryListenerSetsItsOwn() {
        assertRefusedProperty("localqueue.listener.concurrency", "0", "concurrency must be at least 1");
        assertRefusedProperty("localqueue.listener.poll-interval", "0s", "poll interval must be at least 1ms");
        assertRefusedProperty("localqueue.listener.batch-size", "0", "batch size must be between 1 and 1000");
        assertRefusedProperty("localqueue.listener.batch-size", "1001", "batch size must be between 1 and 1000");
        assertRefusedProperty("localqueue.listener.batch-wait", "-1s", "batch wait must be zero or more");
        assertRefusedProperty("localqueue.listener.heartbeat-interval", "0s", "heartbeat interval must be positive");
        assertRefusedProperty("localqueue.listener.shutdown-timeout", "-5s", "shutdown timeout must be zero or more");
    }

    @Test
    void theFailureReportSaysWhichListenerAndWhatToFix() {
        onTempDir().withPropertyValues("localqueue.listener.heartbeat-interval=2m")
                .withBean("emails", Listener.class, Listener::new).run(context -> {
                    FailureAnalysis analysis = new QueueListenerConfigurationFailureAnalyzer()
                            .analyze(context.getStartupFailure());

                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith("@QueueListener 'emails.handle' on queue 'emails' cannot run: heartbeatInterval");
                    assertThat(analysis.getAction()).startsWith("Fix localqueue.listener.heartbeat-interval");
                });
    }

    @Test
    void aRealApplicationPrintsBootsFailureReport(CapturedOutput output) {
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(Map.of("localqueue.path", dir.toString(), "spring.main.banner-mode", "off",
                "localqueue.listener.heartbeat-interval", "2m"));

        assertThatThrownBy(application::run).hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("@QueueListener 'emails' on queue 'emails' cannot run: heartbeatInterval must be smaller")
                .contains("Fix localqueue.listener.heartbeat-interval");
    }

    private void assertRefused(String property, String value, String setting) {
        AtomicBoolean lifecycleStarted = new AtomicBoolean();
        onTempDir().withPropertyValues(property + "=" + value)
                .withBean("emails", Listener.class, Listener::new)
                .withBean("earliest", EarliestLifecycle.class, () -> new EarliestLifecycle(lifecycleStarted))
                .run(context -> {
                    assertThat(context).hasFailed();
                    QueueListenerConfigurationException refused = find(context.getStartupFailure());
                    assertThat(refused.getCause()).hasMessageStartingWith(setting);
                    assertThat(refused.property()).isEqualTo(property);
                    assertThat(refused.listenerId()).isEqualTo("emails.handle");
                    assertThat(refused.queue()).isEqualTo("emails");
                    assertThat(lifecycleStarted).as("a lifecycle bean started before the failure").isFalse();
                });
    }

    private void assertRefusedProperty(String property, String value, String reason) {
        AtomicBoolean lifecycleStarted = new AtomicBoolean();
        onTempDir().withPropertyValues(property + "=" + value)
                .withBean("own", OwnSettings.class, OwnSettings::new)
                .withBean("earliest", EarliestLifecycle.class, () -> new EarliestLifecycle(lifecycleStarted))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(
                            InvalidConfigurationPropertyValueException.class);
                    InvalidConfigurationPropertyValueException refused =
                            (InvalidConfigurationPropertyValueException) Throwables.getRootCause(context.getStartupFailure());
                    assertThat(refused.getName()).isEqualTo(property);
                    assertThat(refused.getReason()).isEqualTo(reason + ", got " + refused.getValue());
                    assertThat(lifecycleStarted).as("a lifecycle bean started before the failure").isFalse();
                });
    }

    private static QueueListenerConfigurationException find(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof QueueListenerConfigurationException refused) {
                return refused;
            }
        }
        throw new AssertionError("no QueueListenerConfigurationException in " + failure);
    }

    /** A batch listener that sets everything a default could. */
    static class OwnSettings {
        @QueueListener(queue = "own", concurrency = "1", batch = true, batchSize = "5", batchWait = "0s")
        void handle(java.util.List<String> emails) {
        }
    }

    static class Listener {
        @QueueListener(queue = "emails")
        void handle(String email) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(LocalQueueAutoConfiguration.class)
    static class Application {
        @Bean
        Named emails() {
            return new Named();
        }
    }

    static class Named {
        @QueueListener(queue = "emails", id = "emails")
        void handle(String email) {
        }
    }

    /** Starts first of all lifecycle beans, as a web server would start before the listeners. */
    static class EarliestLifecycle implements SmartLifecycle {
        private final AtomicBoolean started;
        private volatile boolean running;

        EarliestLifecycle(AtomicBoolean started) {
            this.started = started;
        }

        @Override
        public void start() {
            started.set(true);
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return Integer.MIN_VALUE;
        }
    }
}
