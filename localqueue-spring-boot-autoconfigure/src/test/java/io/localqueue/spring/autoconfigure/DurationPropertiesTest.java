package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.spring.QueueListener;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * Every duration of {@code localqueue.*} refuses a value nothing could run with, a negative one first of all, and
 * ends the start in Boot's failure report naming the property, in an application where every bean that reads one
 * (health, the web answer of a full queue, the bus and its subscriptions, the listeners) exists.
 */
class DurationPropertiesTest {

    @TempDir
    Path dir;

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LocalQueueAutoConfiguration.class,
                    LocalQueueHealthAutoConfiguration.class, LocalQueueWebMvcAutoConfiguration.class))
            .withBean("emails", Listener.class, Listener::new);

    static Stream<Arguments> refusedDurations() {
        return Stream.of(
                Arguments.of("localqueue.delivery.lease", "-1s"),
                Arguments.of("localqueue.delivery.lease", "0s"),
                Arguments.of("localqueue.delivery.backoff.initial-delay", "-1s"),
                Arguments.of("localqueue.delivery.backoff.max-delay", "-1s"),
                Arguments.of("localqueue.producer.max-wait", "-1s"),
                Arguments.of("localqueue.queues.emails.producer.max-wait", "-1s"),
                Arguments.of("localqueue.queues.emails.delivery.lease", "-1s"),
                Arguments.of("localqueue.queues.emails.delivery.backoff.initial-delay", "-1s"),
                Arguments.of("localqueue.queues.emails.delivery.backoff.max-delay", "-1s"),
                Arguments.of("localqueue.listener.poll-interval", "-1s"),
                Arguments.of("localqueue.listener.poll-interval", "0s"),
                Arguments.of("localqueue.listener.heartbeat-interval", "-1s"),
                Arguments.of("localqueue.listener.heartbeat-interval", "0s"),
                Arguments.of("localqueue.listener.shutdown-timeout", "-1s"),
                Arguments.of("localqueue.listener.batch-wait", "-1s"),
                Arguments.of("localqueue.health.integrity-check-interval", "-1s"),
                Arguments.of("localqueue.actuator.max-age", "-1s"),
                Arguments.of("localqueue.actuator.max-age", "0s"),
                Arguments.of("localqueue.web.retry-after", "-1s"),
                Arguments.of("localqueue.bus.shutdown-timeout", "-1s"),
                Arguments.of("localqueue.bus.execution-lease", "-1s"),
                Arguments.of("localqueue.bus.execution-lease", "0s"),
                Arguments.of("localqueue.bus.delivery.lease", "-1s"),
                Arguments.of("localqueue.bus.delivery.lease", "0s"),
                Arguments.of("localqueue.bus.delivery.backoff.initial-delay", "-1s"),
                Arguments.of("localqueue.bus.delivery.backoff.max-delay", "-1s"),
                Arguments.of("localqueue.bus.subscriptions.audit.handler-timeout", "-1s"),
                Arguments.of("localqueue.bus.subscriptions.audit.handler-timeout", "0s"),
                Arguments.of("localqueue.bus.subscriptions.audit.retry.delay", "-1s"),
                Arguments.of("localqueue.bus.subscriptions.audit.retry.initial-delay", "-1s"),
                Arguments.of("localqueue.bus.subscriptions.audit.retry.max-delay", "-1s"),
                Arguments.of("localqueue.retention.acked", "-1s"),
                Arguments.of("localqueue.retention.failed", "-1s"),
                Arguments.of("localqueue.queues.emails.retention.acked", "-1s"),
                Arguments.of("localqueue.queues.emails.retention.failed", "-1s"),
                Arguments.of("localqueue.retention.acked", "200000000000d"),
                Arguments.of("localqueue.retention.failed", "200000000000d"),
                Arguments.of("localqueue.queues.emails.retention.acked", "200000000000d"),
                Arguments.of("localqueue.queues.reports.retention.acked", "200000000000d"));
    }

    @Test
    void theApplicationEveryCaseBreaksStartsAsItIs() {
        runner.withPropertyValues("localqueue.path=" + dir, "localqueue.bus.topology.audit=*",
                "localqueue.bus.subscriptions.audit.retry.type=fixed").run(context -> assertThat(context)
                .hasNotFailed());
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("refusedDurations")
    void aDurationNothingCouldRunWithFailsTheStartNamingItsProperty(String property, String value) {
        String type = property.endsWith("retry.delay") ? "fixed" : "exponential";
        runner.withPropertyValues("localqueue.path=" + dir, "localqueue.bus.topology.audit=*",
                        "localqueue.bus.subscriptions.audit.retry.type=" + type, property + "=" + value)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                            .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                            .satisfies(refused -> assertThat(((InvalidConfigurationPropertyValueException) refused)
                                    .getName()).isEqualTo(property));
                });
    }

    static class Listener {
        @QueueListener(queue = "emails")
        void handle(String email) {
        }
    }
}
