package io.localqueue.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.JobOutcome;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.DeliveryObserver;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.RejectException;
import io.localqueue.bus.SequenceSource;
import io.localqueue.bus.SourceDefinition;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueEndpointAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueHealthAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The event bus in the endpoint, the health indicator and the meters, and the conditions each depends on. */
class LocalQueueBusActuatorTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String EXPOSE = "management.endpoints.web.exposure.include=localqueue";

    @BusEvent(name = "payment.received")
    record PaymentReceived(int number) {
    }

    static final class Payments {
        final CountDownLatch release = new CountDownLatch(1);

        @EventHandler(subscription = "payments")
        void received(PaymentReceived payment) throws InterruptedException {
            if (payment.number() == 3) {
                release.await();
            }
        }
    }

    /** An observer of the application's own, told beside the meters. */
    static final class Outcomes implements DeliveryObserver {
        final List<JobOutcome> seen = new CopyOnWriteArrayList<>();

        @Override
        public void deliveryFinished(String subscription, @Nullable String eventType, JobOutcome outcome,
                                     Duration handlerTime, @Nullable Throwable error) {
            seen.add(outcome);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Payments payments() {
            return new Payments();
        }

        @Bean
        Outcomes outcomes() {
            return new Outcomes();
        }
    }

    LocalQueueBusActuatorTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueEndpointAutoConfiguration.class,
                LocalQueueHealthAutoConfiguration.class, LocalQueueMetricsAutoConfiguration.class,
                MetricsAutoConfiguration.class);
    }

    @Test
    void aRunningExecutionIsReportedWithItsProgressAndDeliveriesAreMeteredAndObserved() {
        onTempDir().withPropertyValues(EXPOSE, "localqueue.actuator.max-age=1ms").withUserConfiguration(App.class)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    LocalQueueEndpoint endpoint = context.getBean(LocalQueueEndpoint.class);
                    SourceDefinition<Integer> payments = bus.source(SequenceSource.of(List.of(1, 2, 3), "p-v1"),
                            "payments", PaymentReceived::new);

                    CompletableFuture<ExecutionResult> result = bus.executeAsync(payments);

                    await().atMost(BOUND).until(() -> {
                        List<ExecutionResult> running = endpoint.queues().bus().executions();
                        return running.size() == 1 && running.get(0).deliveriesAcknowledged() == 2;
                    });
                    ExecutionResult running = endpoint.queues().bus().executions().get(0);
                    assertThat(running.itemsCommitted()).isEqualTo(3);
                    assertThat(running.deliveriesProcessing()).isEqualTo(1);
                    LocalQueueEndpoint.SubscriptionDescriptor described = endpoint.subscription("payments");
                    assertThat(described.activeDeliveries()).isEqualTo(1);
                    assertThat(described.diagnostics().processing()).isEqualTo(1);

                    context.getBean(Payments.class).release.countDown();
                    assertThat(result.get(20, TimeUnit.SECONDS).succeeded()).isTrue();
                    assertThat(endpoint.queues().bus().executions()).isEmpty();

                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    await().atMost(BOUND).until(() -> meters.find("localqueue.bus.deliveries.processed")
                            .tags("bus", "default", "subscription", "payments", "event", "payment.received",
                                    "outcome", "acked").counter() != null
                            && meters.get("localqueue.bus.deliveries.processed").tag("outcome", "acked").counter()
                            .count() == 3);
                    Timer handlerTime = meters.get("localqueue.bus.handler.duration").tag("subscription", "payments")
                            .timer();
                    assertThat(handlerTime.count()).isEqualTo(3);
                    await().atMost(BOUND).until(() -> meters.get("localqueue.bus.deliveries")
                            .tags("subscription", "payments", "state", "acked").gauge().value() == 3);
                    assertThat(meters.get("localqueue.bus.deliveries.oldest.age").tag("subscription", "payments")
                            .gauge().value()).isZero();
                    assertThat(meters.find("localqueue.bus.deliveries.held").gauges())
                            .as("no held gauge: a subscription has no per-key limit").isEmpty();
                    await().atMost(BOUND).untilAsserted(() -> assertThat(context.getBean(Outcomes.class).seen)
                            .containsOnly(JobOutcome.ACKED).hasSize(3));
                });
    }

    @BusEvent(name = "payment.refused")
    record PaymentRefused(int number) {
    }

    static final class Refusals {
        @EventHandler(subscription = "refusals")
        void refused(PaymentRefused payment) {
            throw new RejectException("unknown account " + payment.number(), "unknown_account");
        }
    }

    @Test
    void aDeliveryItsHandlerRejectsIsCountedAmongTheDeadLettersOfItsQueue() {
        onTempDir().withBean(Refusals.class, Refusals::new)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    bus.dispatch(new PaymentRefused(7));
                    MeterRegistry meters = context.getBean(MeterRegistry.class);

                    await().atMost(BOUND).ignoreExceptions().untilAsserted(() -> assertThat(meters.get(
                            "localqueue.dead-letters")
                            .tag("queue", bus.subscription("refusals").queueName()).tag("reason", "rejected")
                            .counter().count()).isEqualTo(1.0));
                });
    }

    @Test
    void healthListsSubscriptionsBesideQueues() {
        onTempDir().withPropertyValues("localqueue.actuator.max-age=1ms").withUserConfiguration(App.class)
                .run(context -> {
                    context.getBean(EventBus.class).dispatch(new PaymentReceived(3));
                    LocalQueueHealthIndicator health = context.getBean(LocalQueueHealthIndicator.class);
                    await().atMost(BOUND).until(() -> processing(health.health(true)) == 1);
                    assertThat(health.health(true).getDetails()).containsKey("queues");
                    context.getBean(Payments.class).release.countDown();
                });
    }

    @Test
    void withoutABusNothingOfItIsReportedAndNoBusMetersExist() {
        onTempDir().withPropertyValues(EXPOSE, "localqueue.bus.enabled=false")
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            assertThat(context).doesNotHaveBean(LocalQueueBusMetrics.class);
            assertThat(context).hasSingleBean(LocalQueueMetrics.class);
            assertThat(context.getBean(LocalQueueEndpoint.class).queues().bus()).isNull();
            assertThat(context.getBean(LocalQueueEndpoint.class).subscription("payments")).isNull();
            assertThat(context.getBean(LocalQueueHealthIndicator.class).health(true).getDetails())
                    .doesNotContainKey("subscriptions");
        });
        onTempDir().withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(LocalQueueBusMetrics.class));
    }

    @SuppressWarnings("unchecked")
    private static long processing(Health health) {
        Object subscriptions = health.getDetails().get("subscriptions");
        if (!(subscriptions instanceof java.util.Map<?, ?> all) || !(all.get("payments") instanceof java.util.Map<?, ?>
                payments)) {
            return -1;
        }
        java.util.Map<String, Object> details = (java.util.Map<String, Object>) payments;
        assertThat(details).containsEntry("consuming", true);
        return ((Number) details.get("processing")).longValue();
    }
}
