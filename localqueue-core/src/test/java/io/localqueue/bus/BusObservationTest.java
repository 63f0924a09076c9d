package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeliveryPolicy;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import io.localqueue.RetryPolicy;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What a bus tells of itself while it runs: every finished delivery to its observer, which subscriptions consume
 * here and how many deliveries they hold, their queues' diagnostics, the executions running; and handlers that
 * arrive while it consumes.
 */
class BusObservationTest extends BusTestBase {

    @BusEvent(name = "order.placed")
    record OrderPlaced(String orderId) {
    }

    @BusEvent(name = "order.shipped")
    record OrderShipped(String orderId) {
    }

    record Seen(String subscription, @Nullable String eventType, JobOutcome outcome, boolean handlerFailed) {
    }

    record Dead(String subscription, FailureReason reason, int attempts, String thread) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final List<Dead> dead = new CopyOnWriteArrayList<>();

    private final DeliveryObserver recorder = new DeliveryObserver() {
        @Override
        public void deliveryFinished(String subscription, @Nullable String eventType, JobOutcome outcome,
                                     Duration handlerTime, @Nullable Throwable error) {
            seen.add(new Seen(subscription, eventType, outcome, error != null));
        }

        @Override
        public void deliveryDeadLettered(String subscription, long deliveryId, FailureReason reason,
                                         @Nullable String lastError, int attempts) {
            dead.add(new Dead(subscription, reason, attempts, Thread.currentThread().getName()));
        }
    };

    @Test
    void theObserverHearsEveryOutcomeWithItsSubscriptionAndEventType() {
        EventBus bus = open(EventBus.builder(database()).observer(recorder)
                .topology(BusTopology.builder().route("shipping", OrderShipped.class).build()));
        Subscription orders = bus.handler(OrderPlaced.class, "orders", (event, context) -> switch (event.orderId()) {
            case "flaky" -> {
                if (context.attempt() == 1) {
                    throw new IllegalStateException("warehouse down");
                }
                yield null;
            }
            case "bad" -> throw new RejectException("no such customer");
            default -> new OrderShipped(event.orderId());
        });
        orders.config().retry(RetryPolicy.fixed(3, Duration.ZERO));
        bus.handler(OrderShipped.class, "shipping", (event, context) -> null);

        bus.dispatch(new OrderPlaced("ok"));
        bus.dispatch(new OrderPlaced("flaky"));
        bus.dispatch(new OrderPlaced("bad"));
        bus.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() == 5);
        assertThat(seen).containsExactlyInAnyOrder(
                new Seen("orders", "order.placed", JobOutcome.ACKED, false),
                new Seen("orders", "order.placed", JobOutcome.RETRIED, true),
                new Seen("orders", "order.placed", JobOutcome.ACKED, false),
                new Seen("orders", "order.placed", JobOutcome.DEAD_LETTERED, true),
                new Seen("shipping", "order.shipped", JobOutcome.ACKED, false));
        assertThat(dead).containsExactly(new Dead("orders", FailureReason.REJECTED, 1,
                "localqueue-report-bus-default-orders"));
    }

    @Test
    void anEmittingDeliveryIsReportedAcknowledgedOnlyOnceItsChildrenAreStored() {
        List<Long> childrenSeenWithTheParentsAck = new CopyOnWriteArrayList<>();
        AtomicReference<EventBus> opened = new AtomicReference<>();
        EventBus bus = open(EventBus.builder(database()).observer(new DeliveryObserver() {
            @Override
            public void deliveryFinished(String subscription, @Nullable String eventType, JobOutcome outcome,
                                         Duration handlerTime, @Nullable Throwable error) {
                if (subscription.equals("orders") && outcome == JobOutcome.ACKED) {
                    QueueStats shipping = opened.get().subscription("shipping").stats();
                    childrenSeenWithTheParentsAck.add(shipping.ready() + shipping.processing() + shipping.acked());
                }
            }
        }).topology(BusTopology.builder().route("shipping", OrderShipped.class).build()));
        opened.set(bus);
        bus.handler(OrderPlaced.class, "orders", (event, context) -> new OrderShipped(event.orderId()));
        List<OrderPlaced> orders = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            orders.add(new OrderPlaced("o-" + i));
        }
        bus.dispatchAll(orders);

        bus.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> childrenSeenWithTheParentsAck.size() == 20);
        for (int i = 0; i < childrenSeenWithTheParentsAck.size(); i++) {
            assertThat(childrenSeenWithTheParentsAck.get(i)).as("children stored when ack %d was told", i)
                    .isGreaterThanOrEqualTo(i + 1L);
        }
    }

    @Test
    void anUnreadableDeliveryIsReportedWithoutAnEventType() {
        EventBus bus = open(EventBus.builder(database()).observer(recorder));
        bus.handler(OrderPlaced.class, "orders", (event, context) -> null);
        try (SimpleQueue<byte[]> raw = SimpleQueue.builder(database(), Serializer.bytes()).name("__bus__:default:orders")
                .build()) {
            raw.put("not an envelope".getBytes(StandardCharsets.UTF_8));
        }

        bus.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> dead.size() == 1);
        assertThat(seen).containsExactly(new Seen("orders", null, JobOutcome.DEAD_LETTERED, false));
        assertThat(dead).containsExactly(new Dead("orders", FailureReason.INVALID_ENVELOPE, 1,
                "localqueue-report-bus-default-orders"));
    }

    @Test
    void aSubscriptionSaysWhetherItConsumesHereAndHowManyDeliveriesItHolds() throws InterruptedException {
        EventBus bus = open(EventBus.builder(database()));
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Subscription orders = bus.handler(OrderPlaced.class, "orders", (event, context) -> {
            entered.countDown();
            release.await();
            return null;
        });
        orders.config().concurrency(2);
        assertThat(orders.consuming()).isFalse();
        assertThat(bus.isRunning()).isFalse();

        bus.dispatchAll(List.of(new OrderPlaced("1"), new OrderPlaced("2"), new OrderPlaced("3")));
        bus.start();

        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(bus.isRunning()).isTrue();
        assertThat(orders.consuming()).isTrue();
        assertThat(orders.activeDeliveries()).isEqualTo(2);
        QueueDiagnostics diagnostics = orders.diagnostics();
        assertThat(diagnostics.queueName()).isEqualTo("__bus__:default:orders");
        assertThat(diagnostics.serializerIdentity()).isEqualTo(Subscription.SERIALIZER_IDENTITY);
        assertThat(diagnostics.processing()).isEqualTo(2);
        assertThat(diagnostics.ready()).isEqualTo(1);
        assertThat(orders.stats(Duration.ofMinutes(1)).processing()).isEqualTo(2);
        assertThatThrownBy(() -> orders.stats(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxAge");

        release.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> orders.diagnostics().acked() == 3);
        bus.stop();
        assertThat(orders.consuming()).isFalse();
        assertThat(orders.activeDeliveries()).isZero();
        assertThat(bus.isRunning()).isFalse();
    }

    @Test
    void handlersAddedWhileTheBusConsumesJoinOrStartTheirSubscription() {
        EventBus bus = open(EventBus.builder(database()).delivery(new DeliveryPolicy(Duration.ofSeconds(30), 3)));
        List<String> handled = new CopyOnWriteArrayList<>();
        bus.handler(OrderPlaced.class, "orders", (event, context) -> {
            handled.add("placed " + event.orderId());
            return null;
        });
        bus.start();

        Subscription shipping = bus.handler(OrderShipped.class, "shipping", (event, context) -> {
            handled.add("shipped " + event.orderId());
            return null;
        });
        shipping.config().concurrency(2);
        bus.dispatch(new OrderShipped("1"));
        assertThat(shipping.consuming()).isFalse();
        bus.start();
        assertThat(shipping.consuming()).isTrue();
        assertThatThrownBy(() -> shipping.config().concurrency(3)).isInstanceOf(IllegalStateException.class);

        bus.handler(OrderShipped.class, "orders", (event, context) -> {
            handled.add("orders saw shipped " + event.orderId());
            return null;
        });
        bus.dispatch(new OrderShipped("2"));
        bus.dispatch(new OrderPlaced("3"));

        await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() == 4);
        assertThat(handled).containsExactlyInAnyOrder("shipped 1", "shipped 2", "orders saw shipped 2",
                "placed 3");
        assertThatThrownBy(() -> bus.run(Duration.ofMillis(10))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("consumes already");
    }

    @Test
    void aRunningExecutionIsListedWithItsProgressUntilItsCallReturns() throws Exception {
        EventBus bus = open(EventBus.builder(database()));
        CountDownLatch release = new CountDownLatch(1);
        bus.handler(OrderPlaced.class, "orders", (event, context) -> {
            if (event.orderId().equals("7")) {
                release.await();
            }
            return null;
        });
        SourceDefinition<Integer> orders = bus.source(SequenceSource.of(List.of(1, 2, 3, 4, 5, 6, 7), "orders-v1"),
                "orders", number -> new OrderPlaced(String.valueOf(number)));
        assertThat(bus.runningExecutions()).isEmpty();

        CompletableFuture<ExecutionResult> result = bus.executeAsync(orders);

        await().atMost(Duration.ofSeconds(20)).until(() -> bus.runningExecutions().stream()
                .anyMatch(running -> running.deliveriesAcknowledged() == 6));
        ExecutionResult running = bus.runningExecutions().get(0);
        assertThat(running.itemsCommitted()).isEqualTo(7);
        assertThat(running.deliveriesProcessing()).isEqualTo(1);
        assertThat(running.completed()).isFalse();
        release.countDown();
        ExecutionResult done = result.get(20, TimeUnit.SECONDS);
        assertThat(done.executionId()).isEqualTo(running.executionId());
        assertThat(bus.runningExecutions()).isEmpty();
    }
}
