package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.spring.ContextRunnerTestBase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * A queue or subscription name holding a dot, written without Spring Boot's brackets, ends the start in a failure
 * report that gives the user's own key in the bracket form.
 */
@ExtendWith(OutputCaptureExtension.class)
class DottedNameFailureTest extends ContextRunnerTestBase {

    @Test
    void aDottedQueueNameIsReportedWithItsBracketForm() {
        FailureAnalysis analysis = analysisOf("localqueue.queues.orders.eu.max-pending-jobs=100");

        assertThat(analysis.getDescription()).contains("localqueue.queues.orders.eu.max-pending-jobs")
                .contains("queue 'orders.eu'");
        assertThat(analysis.getAction()).contains("localqueue.queues.[orders.eu].max-pending-jobs=100")
                .contains("\"[orders.eu]\":");
    }

    @Test
    void aNestedSettingOfADottedQueueNameIsReportedWithItsBracketForm() {
        FailureAnalysis analysis = analysisOf("localqueue.queues.email.outbound.delivery.backoff.max-delay=1m");

        assertThat(analysis.getAction()).contains("localqueue.queues.[email.outbound].delivery.backoff.max-delay=1m");
    }

    @Test
    void aDottedSubscriptionNameIsReportedWithItsBracketForm() {
        FailureAnalysis analysis = analysisOf("localqueue.bus.subscriptions.user.created.concurrency=4");

        assertThat(analysis.getDescription()).contains("subscription 'user.created'");
        assertThat(analysis.getAction()).contains("localqueue.bus.subscriptions.[user.created].concurrency=4");
    }

    @Test
    void aMistypedPropertyIsLeftToBootsOwnReport() {
        onTempDir().withPropertyValues("localqueue.queues.orders.max-pending-jobz=100").run(context -> {
            assertThat(context).hasFailed();
            assertThat(new DottedNameFailureAnalyzer().analyze(context.getStartupFailure())).isNull();
        });
    }

    @Test
    void aRealApplicationPrintsTheBracketForm(CapturedOutput output) {
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(Map.of("localqueue.path", dir.toString(), "spring.main.banner-mode", "off",
                "localqueue.queues.orders.eu.max-pending-jobs", "100"));

        assertThatThrownBy(application::run);

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("localqueue.queues.[orders.eu].max-pending-jobs=100");
    }

    private FailureAnalysis analysisOf(String property) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        onTempDir().withPropertyValues(property).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new DottedNameFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("a failure report").isNotNull();
        return analysis[0];
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(LocalQueueAutoConfiguration.class)
    static class Application {
    }
}
