package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.bus.BusEvent;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.QueueListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A handler method declared wrongly ends the start with Boot's failure report naming the method and the fix. */
@ExtendWith(OutputCaptureExtension.class)
class InvalidHandlerMethodFailureTest extends ContextRunnerTestBase {

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    static final class BadConcurrency {
        @EventHandler(concurrency = "${workers:none}")
        void created(UserCreated event) {
        }
    }

    static final class BadTimeout {
        @EventHandler(handlerTimeout = "soon")
        void created(UserCreated event) {
        }
    }

    static final class BadListener {
        @QueueListener(queue = "emails", ackMode = "LATER")
        void handle(String email) {
        }
    }

    @Test
    void eachBadAttributeIsAnalysedWithItsMethodAndValue() {
        assertAnalysed(BadConcurrency.class, "@EventHandler method bad.created has concurrency 'none'; it must be a "
                + "positive whole number.", "Fix the @EventHandler of bad.created");
        assertAnalysed(BadTimeout.class, "@EventHandler method bad.created has handlerTimeout 'soon'; it must be a "
                + "duration such as 500ms or PT0.5S.", "Fix the @EventHandler of bad.created");
        assertAnalysed(BadListener.class, "@QueueListener method bad.handle has ackMode 'LATER'; it must be AUTO or "
                + "MANUAL.", "Fix the @QueueListener of bad.handle");
    }

    @Test
    void aRealApplicationPrintsBootsFailureReportNotAStackTraceAlone(CapturedOutput output) {
        startFails(Application.class);

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("@EventHandler method badConcurrency.created has concurrency 'none'")
                .contains("a ${...} placeholder takes its value from the property it names");
    }

    @Test
    void aBeanThatNeedsTheBusWhileItIsTurnedOffIsToldWhichPropertyTurnedItOff(CapturedOutput output) {
        startFails(NeedsTheBus.class, "localqueue.bus.enabled", "false");

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("A bean needs the event bus (io.localqueue.bus.EventBus), but localqueue.bus.enabled is "
                        + "false, so the application has none")
                .contains("Remove localqueue.bus.enabled=false");
    }

    /** Runs a real application on the test's directory, with more properties as name, value pairs; it must fail. */
    private void startFails(Class<?> source, String... properties) {
        SpringApplication application = new SpringApplication(source);
        application.setWebApplicationType(WebApplicationType.NONE);
        java.util.Map<String, Object> defaults = new java.util.HashMap<>(java.util.Map.of("localqueue.path",
                dir.toString()));
        for (int i = 0; i < properties.length; i += 2) {
            defaults.put(properties[i], properties[i + 1]);
        }
        application.setDefaultProperties(defaults);
        org.assertj.core.api.Assertions.assertThatThrownBy(application::run);
    }

    private void assertAnalysed(Class<?> bean, String description, String action) {
        onTempDir().withBean("bad", bean).run(context -> {
            FailureAnalysis analysis = new InvalidHandlerMethodFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).isEqualTo(description);
            assertThat(analysis.getAction()).startsWith(action);
        });
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(LocalQueueAutoConfiguration.class)
    static class NeedsTheBus {
        @Bean
        String dispatcher(io.localqueue.bus.EventBus bus) {
            return bus.name();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(LocalQueueAutoConfiguration.class)
    static class Application {
        @Bean
        BadConcurrency badConcurrency() {
            return new BadConcurrency();
        }
    }
}
