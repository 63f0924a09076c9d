package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.EnqueueOptions;
import io.localqueue.Job;
import io.localqueue.QueueDiagnostics;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * A queue's limits and concurrency key from {@code localqueue.queues.<name>.*}: stored as the queue's when it opens,
 * read from the payload by the template, and a bad value fails the start naming its property.
 */
class QueueLimitsPropertiesTest extends ContextRunnerTestBase {

    record Export(String customerId, int rows) {
    }

    @Test
    void theLimitsOfAQueueAreStoredWhenItOpensSoEveryProcessObeysThem() {
        onTempDir().withPropertyValues("localqueue.queues.exports.max-concurrent=4",
                "localqueue.queues.exports.max-concurrent-per-key=2",
                "localqueue.queues.exports.rate-limit.permits=100", "localqueue.queues.exports.rate-limit.period=1m")
                .run(context -> {
                    LocalQueueRegistry registry = context.getBean(LocalQueueRegistry.class);
                    assertThat(registry.settings().limitsFor("exports"))
                            .isEqualTo(new QueueSettings.Limits(4, 2, 100, Duration.ofMinutes(1)));
                    assertThat(registry.settings().limitsFor("other")).isEqualTo(QueueSettings.Limits.NONE);
                    QueueDiagnostics diagnostics = registry.queue("exports").diagnostics();
                    assertThat(diagnostics.maxConcurrent()).isEqualTo(4);
                    assertThat(diagnostics.maxConcurrentPerKey()).isEqualTo(2);
                    assertThat(diagnostics.rateLimitPermits()).isEqualTo(100);
                    assertThat(diagnostics.rateLimitPeriodSeconds()).isEqualTo(60.0);
                });
        try (SimpleQueue<Object> another = SimpleQueue.builder(dir).name("exports").build()) {
            assertThat(another.diagnostics().maxConcurrent()).as("stored in the file").isEqualTo(4);
        }
    }

    @Test
    void theTemplateGivesJobsWithoutAKeyTheOneTheExpressionReadsFromThePayload() {
        onTempDir().withPropertyValues("localqueue.queues.exports.concurrency-key=customerId",
                "localqueue.queues.maps.concurrency-key=['customer']").run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            LocalQueueRegistry registry = context.getBean(LocalQueueRegistry.class);
            template.put("exports", new Export("acme", 10));
            template.put("exports", new Export("acme", 11), null, EnqueueOptions.defaults().concurrencyKey("mine"));
            template.putAll("maps", java.util.List.of(Map.of("customer", "globex"), Map.of("other", 1)));

            SimpleQueue<Export> exports = registry.queue("exports", Export.class);
            assertThat(exports.getNowait().concurrencyKey()).isEqualTo("acme");
            assertThat(exports.getNowait().concurrencyKey()).as("a key of the job's own wins").isEqualTo("mine");
            SimpleQueue<Object> maps = registry.queue("maps");
            Job<Object> keyed = maps.getNowait();
            assertThat(keyed.concurrencyKey()).isEqualTo("globex");
            assertThat(maps.getNowait().concurrencyKey()).as("a null result leaves no key").isNull();
        });
    }

    @Test
    void anExpressionThePayloadCannotAnswerFailsThePutNamingTheQueue() {
        onTempDir().withPropertyValues("localqueue.queues.exports.concurrency-key=tenant").run(context ->
                assertThatThrownBy(() -> context.getBean(LocalQueueTemplate.class).put("exports",
                        new Export("acme", 1))).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("concurrency key of queue 'exports' (tenant,"
                                + " localqueue.queues.exports.concurrency-key) cannot be read"));
    }

    @Test
    void anExpressionThatReadsABlankKeyFailsThePutNamingTheQueueAndItsProperty() {
        onTempDir().withPropertyValues("localqueue.queues.exports.concurrency-key=customerId").run(context ->
                assertThatThrownBy(() -> context.getBean(LocalQueueTemplate.class).put("exports",
                        new Export(" ", 1))).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("queue 'exports' (customerId, localqueue.queues.exports.concurrency-key)")
                        .hasMessageContaining("must not be blank"));
    }

    @Test
    void aStartThatFailsBeforeTheListenersStartStoresNoneOfItsLimits() {
        onTempDir().withPropertyValues("localqueue.queues.exports.max-concurrent=4")
                .run(context -> assertThat(context).hasNotFailed());
        onTempDir().withUserConfiguration(FailingServer.class)
                .withPropertyValues("localqueue.queues.exports.max-concurrent=1",
                        "localqueue.queues.exports.rate-limit.permits=5",
                        "localqueue.queues.exports.rate-limit.period=1s")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasRootCauseMessage("port 8080 is in use");
                });
        try (SimpleQueue<Object> another = SimpleQueue.builder(dir).name("exports").build()) {
            assertThat(another.diagnostics().maxConcurrent()).as("the limit of the last start that succeeded")
                    .isEqualTo(4);
            assertThat(another.diagnostics().rateLimitPermits()).isNull();
        }
    }

    @Test
    void theRegistryStoresTheLimitsAfterWebServersStartAndBeforeTheListenersClaim() {
        assertThat(LocalQueueRegistry.PHASE).isLessThan(QueueListenerEndpointRegistry.PHASE)
                .isGreaterThan(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE)
                .isGreaterThan(WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE);
    }

    /** Opens the queue while the context starts, then fails as a web server whose port is taken does. */
    @Configuration(proxyBeanMethods = false)
    static class FailingServer {

        @Bean
        SimpleQueue<Object> exports(LocalQueueRegistry registry) {
            return registry.queue("exports");
        }

        @Bean
        SmartLifecycle server() {
            return new SmartLifecycle() {
                @Override
                public void start() {
                    throw new IllegalStateException("port 8080 is in use");
                }

                @Override
                public void stop() {
                }

                @Override
                public boolean isRunning() {
                    return false;
                }

                @Override
                public int getPhase() {
                    return SmartLifecycle.DEFAULT_PHASE - 2048;
                }
            };
        }
    }

    static Stream<Arguments> refusedValues() {
        return Stream.of(
                Arguments.of("localqueue.queues.exports.max-concurrent", "-1", null),
                Arguments.of("localqueue.queues.exports.max-concurrent-per-key", "-2", null),
                Arguments.of("localqueue.queues.exports.rate-limit.permits", "-1", "1s"),
                Arguments.of("localqueue.queues.exports.rate-limit.period", "0s", "5"),
                Arguments.of("localqueue.queues.exports.rate-limit.period", "1500us", "5"),
                Arguments.of("localqueue.queues.exports.rate-limit.period", "200000000000d", "5"),
                Arguments.of("localqueue.queues.exports.concurrency-key", "customerId)(", null));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("refusedValues")
    void aBadValueFailsTheStartNamingItsProperty(String property, String value, String other) {
        String[] values = other == null ? new String[] {property + "=" + value}
                : property.endsWith("permits")
                ? new String[] {property + "=" + value, "localqueue.queues.exports.rate-limit.period=" + other}
                : new String[] {property + "=" + value, "localqueue.queues.exports.rate-limit.permits=" + other};
        onTempDir().withPropertyValues(values).run(context -> assertRefused(context.getStartupFailure(), property));
    }

    @Test
    void aRatePeriodWithoutPermitsOrPermitsWithoutAPeriodFailTheStartNamingWhatIsMissing() {
        onTempDir().withPropertyValues("localqueue.queues.exports.rate-limit.period=1s").run(context ->
                assertRefused(context.getStartupFailure(), "localqueue.queues.exports.rate-limit.permits"));
        onTempDir().withPropertyValues("localqueue.queues.exports.rate-limit.permits=5").run(context -> {
            assertRefused(context.getStartupFailure(), "localqueue.queues.exports.rate-limit.period");
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .hasMessageContaining("5 permits but no period");
        });
        onTempDir().withPropertyValues("localqueue.queues.exports.rate-limit.permits=5",
                "localqueue.queues.exports.rate-limit.period=").run(context ->
                assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .as("an empty value is left unbound, which Boot reports naming the property")
                        .hasMessageContaining("localqueue.queues.exports.rate-limit.period"));
        onTempDir().withPropertyValues("localqueue.queues.exports.rate-limit.permits=0").run(context ->
                assertThat(context).as("0 permits lift the limit without a period").hasNotFailed());
    }

    private static void assertRefused(Throwable failure, String property) {
        assertThat(failure).isNotNull();
        assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                .satisfies(refused -> assertThat(((InvalidConfigurationPropertyValueException) refused).getName())
                        .isEqualTo(property));
    }
}
