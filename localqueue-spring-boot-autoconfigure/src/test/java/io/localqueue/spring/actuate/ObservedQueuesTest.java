package io.localqueue.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueEndpointAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueHealthAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueMetricsAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.core.NestedExceptionUtils;

/**
 * Health, gauges and the endpoint report each queue's last snapshot, at most {@code localqueue.actuator.max-age} old
 * before a recount starts, and say how old it is; no request waits for a count of a queue's jobs.
 */
class ObservedQueuesTest extends ContextRunnerTestBase {

    private static final String EXPOSE = "management.endpoints.web.exposure.include=localqueue";
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final MovableClock clock = new MovableClock();

    ObservedQueuesTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueEndpointAutoConfiguration.class,
                LocalQueueHealthAutoConfiguration.class, LocalQueueMetricsAutoConfiguration.class,
                MetricsAutoConfiguration.class);
    }

    @Test
    void maxAgeIsFiveSecondsUnlessThePropertySaysOtherwise() {
        onTempDir().run(context -> assertThat(context.getBean(ObservedQueues.class).maxAge())
                .isEqualTo(ObservedQueues.DEFAULT_MAX_AGE).isEqualTo(Duration.ofSeconds(5)));
        onTempDir().withPropertyValues("localqueue.actuator.max-age=30s").run(context ->
                assertThat(context.getBean(ObservedQueues.class).maxAge()).isEqualTo(Duration.ofSeconds(30)));
    }

    @Test
    void aMaxAgeUnderOneMillisecondStopsTheStartNamingTheProperty() {
        for (String refused : new String[] {"0s", "-1s"}) {
            onTempDir().withPropertyValues("localqueue.actuator.max-age=" + refused).run(context -> {
                assertThat(context).hasFailed();
                Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
                assertThat(cause).isInstanceOf(InvalidConfigurationPropertyValueException.class);
                InvalidConfigurationPropertyValueException invalid = (InvalidConfigurationPropertyValueException) cause;
                assertThat(invalid.getName()).isEqualTo("localqueue.actuator.max-age");
                assertThat(invalid.getReason()).startsWith("maxAge must be at least 1ms");
            });
        }
    }

    @Test
    void theViewRefusesAMaxAgeUnderOneMillisecond() {
        onTempDir().run(context -> {
            LocalQueueRegistry queues = context.getBean(LocalQueueRegistry.class);
            assertThatThrownBy(() -> new ObservedQueues(queues, Duration.ofNanos(999_999)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxAge");
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthGaugesEndpointAndDeadLetterTotalReadTheLastSnapshotAndSayHowOldItIs() {
        onTempDir().withPropertyValues(EXPOSE, "localqueue.queues.watched.max-pending-jobs=100")
                .withBean(Clock.class, () -> clock)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    SimpleQueue<Object> queue = context.getBean(LocalQueueRegistry.class).queue("watched");
                    queue.put("one");
                    LocalQueueHealthIndicator health = context.getBean(LocalQueueHealthIndicator.class);
                    LocalQueueEndpoint endpoint = context.getBean(LocalQueueEndpoint.class);
                    Gauge failed = context.getBean(MeterRegistry.class).get("localqueue.jobs")
                            .tag("queue", "watched").tag("state", "failed").gauge();
                    assertThat(failed.value()).isZero();

                    queue.put("two");
                    queue.fail(queue.getNowait(), "dead");
                    clock.advance(Duration.ofSeconds(2));

                    assertThat(template.stats("watched")).as("exact").isEqualTo(new QueueStats(1, 0, 0, 1));
                    assertThat(failed.value()).isZero();
                    Map<String, Object> queues = (Map<String, Object>) health.health(true).getDetails().get("queues");
                    assertThat((Map<String, Object>) queues.get("watched")).containsEntry("ready", 1L)
                            .containsEntry("failed", 0L).containsEntry("observedAgeSeconds", 2.0);
                    LocalQueueEndpoint.QueueDescriptor described = endpoint.queue("watched");
                    assertThat(described.diagnostics().ready()).isEqualTo(1);
                    assertThat(described.observedAgeSeconds()).isEqualTo(2.0);
                    DeadLetterPage page = endpoint.deadLetters("watched", null, null);
                    assertThat(page.deadLetters()).hasSize(1);
                    assertThat(page.total()).as("as last counted").isZero();

                    clock.advance(ObservedQueues.DEFAULT_MAX_AGE);
                    await().atMost(BOUND).until(() -> endpoint.queue("watched").diagnostics().failed() == 1);
                    assertThat(failed.value()).isEqualTo(1.0);
                    assertThat(endpoint.queue("watched").observedAgeSeconds()).isZero();
                    assertThat(endpoint.deadLetters("watched", null, null).total())
                            .isEqualTo(1);
                });
    }

    @Test
    void theLagGaugeIsTheOneMeasuredWhenTheSnapshotWasTaken() {
        onTempDir().withPropertyValues("localqueue.queues.backlog.max-pending-jobs=100")
                .withBean(Clock.class, () -> clock).withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    context.getBean(LocalQueueRegistry.class).queue("backlog").put("waiting");
                    clock.advance(Duration.ofSeconds(30));
                    Gauge lag = context.getBean(MeterRegistry.class).get("localqueue.jobs.oldest.age")
                            .tag("queue", "backlog").gauge();

                    assertThat(lag.value()).isEqualTo(30.0);
                    clock.advance(Duration.ofSeconds(1));
                    assertThat(lag.value()).isEqualTo(30.0);
                });
    }

    /** A clock that stands still until the test moves it. */
    private static final class MovableClock extends Clock {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2030-01-01T00:00:00Z"));

        void advance(Duration amount) {
            now.updateAndGet(current -> current.plus(amount));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
