package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.QueueStats;
import io.localqueue.RetryPolicy;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.ClaimedRow;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bus on a real file: fan-out, identity, every way a delivery ends, and emission with its parent's ack. */
class EventBusTest extends BusTestBase {

    @BusEvent(name = "user.created")
    record UserCreated(String userId, String name) {
    }

    @BusEvent(name = "user.welcomed")
    record UserWelcomed(String userId) {
    }

    @BusEvent(name = "import.row", identity = {"importId", "externalId"})
    record ImportRow(String importId, String externalId, String name) {
    }

    record Untyped(String value) {
    }



    private EventBus open(BusTopology topology) {
        return open(EventBus.builder(database()).topology(topology));
    }


    @Test
    void aDispatchStoresOneDeliveryPerRoutedSubscriptionSortedByName() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("mailer", UserCreated.class).route("audit", "*")
                .route("other", UserWelcomed.class).build());

        DispatchReceipt receipt = bus.dispatch(new UserCreated("u-1", "Zoë"));

        assertThat(receipt.eventType()).isEqualTo("user.created");
        assertThat(receipt.subscriptions()).containsExactly("audit", "mailer");
        assertThat(receipt.inserted()).containsExactly(true, true);
        assertThat(receipt.insertedCount()).isEqualTo(2);
        assertThat(queues()).containsExactlyInAnyOrder("__bus__:default:audit", "__bus__:default:mailer");
        assertThat(rowValue("SELECT job_id FROM messages WHERE id = " + receipt.messageIds().get(0)))
                .isEqualTo(receipt.eventId().toString());
    }

    @Test
    void theEnvelopeIsTheBytesPythonWrites() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("mailer", UserCreated.class).build());
        UUID id = UUID.fromString("6f1c2b9e-4d3a-4f0b-8e7d-6c5b4a392817");
        EventMetadata metadata = new EventMetadata(id, id, null, Instant.parse("2026-07-25T10:15:30.123456789Z"));

        DispatchReceipt first = bus.dispatch(new EventEnvelope<>(new UserCreated("u-0", "Ann"), EventMetadata.root()));
        DispatchReceipt receipt = bus.dispatch(new EventEnvelope<>(new UserCreated("u-1", "Zoë"), metadata));

        assertThat(first.inserted()).containsExactly(true);
        // json.dumps of the reference's envelope dict, from Python 3; the second event of a type is written without
        // a tree, the first with one
        assertThat(payload(receipt.messageIds().get(0)))
                .isEqualTo("{\"event_id\": \"6f1c2b9e-4d3a-4f0b-8e7d-6c5b4a392817\", \"correlation_id\": "
                        + "\"6f1c2b9e-4d3a-4f0b-8e7d-6c5b4a392817\", \"causation_id\": null, \"event_type\": "
                        + "\"user.created\", \"event_schema\": \"user.created@1\", \"event_created_at\": "
                        + "\"2026-07-25T10:15:30.123456+00:00\", \"payload\": {\"userId\": \"u-1\", \"name\": "
                        + "\"Zo\\u00eb\"}}");
        assertThat(EventCodec.isoformat(Instant.parse("2026-07-25T10:15:30Z"))).isEqualTo("2026-07-25T10:15:30+00:00");
        assertThat(EventCodec.isoformat(Instant.parse("2026-07-25T10:15:30.000007Z")))
                .isEqualTo("2026-07-25T10:15:30.000007+00:00");
    }

    @Test
    void timesAreReadInEveryShapePythonsFromisoformatReads() {
        assertThat(EventCodec.parseTime("2026-07-25T10:15:30.123456+00:00"))
                .isEqualTo(Instant.parse("2026-07-25T10:15:30.123456Z"));
        assertThat(EventCodec.parseTime("2026-07-25T10:15:30+00:00")).isEqualTo(Instant.parse("2026-07-25T10:15:30Z"));
        assertThat(EventCodec.parseTime("2026-07-25T12:15:30.5+02:00")).isEqualTo(Instant.parse("2026-07-25T10:15:30.5Z"));
        assertThat(EventCodec.parseTime("2026-07-25 10:15:30")).as("naive means UTC")
                .isEqualTo(Instant.parse("2026-07-25T10:15:30Z"));
        assertThat(EventCodec.parseTime("2026-07-25T10:15:30Z")).isEqualTo(Instant.parse("2026-07-25T10:15:30Z"));
        assertThatThrownBy(() -> EventCodec.parseTime("2026-13-25T10:15:30+00:00"))
                .isInstanceOf(java.time.format.DateTimeParseException.class);
    }

    @Test
    void theSameEventDispatchedAgainIsStoredOncePerSubscription() {
        EventBus bus = open(BusTopology.builder().route("a", UserCreated.class).route("b", UserCreated.class)
                .build());
        EventEnvelope<UserCreated> event = new EventEnvelope<>(new UserCreated("u-1", "Ann"), EventMetadata.root());

        DispatchReceipt first = bus.dispatch(event);
        DispatchReceipt again = bus.dispatch(event);

        assertThat(again.messageIds()).isEqualTo(first.messageIds());
        assertThat(again.inserted()).containsExactly(false, false);
        assertThat(again.deduplicatedSubscriptions()).containsExactly("a", "b");
    }

    @Test
    void repeatsInsideOneBatchResolveToTheFirstRowAndAConflictInsideItRollsAllBack() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("a", UserCreated.class, ImportRow.class)
                .route("b", ImportRow.class).build());
        EventEnvelope<UserCreated> repeated = new EventEnvelope<>(new UserCreated("u-1", "Ann"), EventMetadata.root());

        List<DispatchReceipt> receipts = bus.dispatchAll(List.of(repeated, new ImportRow("i", "1", "Ann"), repeated,
                new ImportRow("i", "1", "Ann")));

        assertThat(receipts.get(2).messageIds()).isEqualTo(receipts.get(0).messageIds());
        assertThat(receipts.get(2).inserted()).containsExactly(false);
        assertThat(receipts.get(3).messageIds()).isEqualTo(receipts.get(1).messageIds());
        assertThat(receipts.get(3).inserted()).containsExactly(false, false);
        long rows = count("SELECT COUNT(*) FROM messages");
        assertThatThrownBy(() -> bus.dispatchAll(List.of(new ImportRow("i", "2", "Bob"), new ImportRow("i", "2",
                "Eve")))).isInstanceOf(DeduplicationConflictException.class);
        assertThat(count("SELECT COUNT(*) FROM messages")).isEqualTo(rows);
    }

    @Test
    void dispatchesFromManyThreadsAtOnceEachGetTheirOwnReceiptAndAConflictFailsOnlyItsCaller() throws Exception {
        EventBus bus = open(BusTopology.builder().route("users", ImportRow.class).build());
        long stored = bus.dispatch(new ImportRow("i", "taken", "Ann")).messageIds().get(0);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Long> sameIdentity = new CopyOnWriteArrayList<>();
        AtomicInteger inserted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (int n = 0; n < 30; n++) {
                        ImportRow row = thread == 5 && n == 12 ? new ImportRow("i", "taken", "Bob")
                                : n == 20 ? new ImportRow("i", "shared", "Cy") : new ImportRow("i", thread + "-" + n, "x");
                        try {
                            DispatchReceipt receipt = bus.dispatch(row);
                            if (row.externalId().equals("shared")) {
                                sameIdentity.add(receipt.messageIds().get(0));
                            } else if (receipt.inserted().get(0)) {
                                inserted.incrementAndGet();
                            }
                        } catch (RuntimeException failure) {
                            failures.add(failure);
                        }
                    }
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread thread : threads) {
            thread.join(60_000);
        }

        assertThat(failures).singleElement().isInstanceOf(DeduplicationConflictException.class);
        assertThat(inserted).hasValue(8 * 30 - 8 - 1);
        assertThat(sameIdentity).hasSize(8).containsOnly(sameIdentity.get(0));
        assertThat(count("SELECT COUNT(*) FROM messages")).as("taken, shared once, and every other row")
                .isEqualTo(1 + 1 + 8 * 30 - 8 - 1);
        assertThat(bus.subscription("users").stats().ready()).isEqualTo(1 + 1 + 8 * 30 - 8 - 1);
        assertThat(stored).isPositive();
    }

    @Test
    void anIdentityIsStoredOnceAndTheFieldOrderDoesNotMatter() {
        EventBus bus = open(BusTopology.builder().route("users", ImportRow.class).build());

        DispatchReceipt first = bus.dispatch(new ImportRow("2026-07", "42", "Ann"));
        DispatchReceipt second = bus.dispatch(new ImportRow("2026-07", "42", "Ann"));

        assertThat(second.eventId()).isNotEqualTo(first.eventId());
        assertThat(second.messageIds()).isEqualTo(first.messageIds());
        assertThat(second.inserted()).containsExactly(false);
    }

    @Test
    void anIdentityWithAnotherPayloadRollsTheWholeFanOutBack() throws SQLException {
        open(BusTopology.builder().route("z-late", ImportRow.class).build())
                .dispatch(new ImportRow("2026-07", "42", "Ann"));
        EventBus wider = open(BusTopology.builder().route("a-early", ImportRow.class).route("z-late", ImportRow.class)
                .build());

        assertThatThrownBy(() -> wider.dispatch(new ImportRow("2026-07", "42", "Bob")))
                .isInstanceOf(DeduplicationConflictException.class).hasMessageContaining("z-late");
        assertThat(count("SELECT COUNT(*) FROM messages WHERE queue = '__bus__:default:a-early'"))
                .as("the delivery inserted before the conflict rolled back").isZero();
    }

    @Test
    void aMissingOrBlankIdentityValueIsRefusedBeforeAnyWrite() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("users", ImportRow.class).build());

        assertThatThrownBy(() -> bus.dispatch(new ImportRow("2026-07", " \t", "Ann")))
                .isInstanceOf(InvalidEventIdentityException.class).hasMessageContaining("externalId");
        assertThatThrownBy(() -> bus.dispatch(new ImportRow(null, "42", "Ann")))
                .isInstanceOf(InvalidEventIdentityException.class).hasMessageContaining("importId");
        assertThat(count("SELECT COUNT(*) FROM messages")).isZero();
    }

    @Test
    void anEventNobodySubscribesToIsRefusedOrIgnoredAsConfigured() throws SQLException {
        EventBus strict = open(BusTopology.builder().route("mailer", UserCreated.class).build());
        assertThatThrownBy(() -> strict.dispatch(new UserWelcomed("u-1"))).isInstanceOf(NoSubscribersException.class)
                .hasMessage("no subscription for 'user.welcomed'");

        EventBus lenient = open(EventBus.builder(database()).name("lenient").requireSubscribers(false));
        DispatchReceipt receipt = lenient.dispatch(new UserWelcomed("u-1"));
        assertThat(receipt.subscriptions()).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM messages")).isZero();
    }

    @Test
    void aHandlerThatReturnsAcknowledgesItsDelivery() {
        EventBus bus = open(BusTopology.empty());
        List<String> seen = new CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, (event, context) -> {
            seen.add(event.userId() + "@" + context.attempt() + ":" + context.subscription());
            return null;
        });
        bus.start();

        DispatchReceipt receipt = bus.dispatch(new UserCreated("u-1", "Ann"));

        await().atMost(10, TimeUnit.SECONDS).until(() -> stats(bus, "user.created").acked() == 1);
        assertThat(seen).containsExactly("u-1@1:user.created");
        assertThat(receipt.subscriptions()).containsExactly("user.created");
    }

    @Test
    void retriesFollowTheSubscriptionsPolicyAndRetryExceptionSaysWhy() {
        EventBus bus = open(BusTopology.empty());
        AtomicInteger calls = new AtomicInteger();
        Subscription subscription = bus.handler(UserCreated.class, (event, context) -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("api down");
            }
            if (calls.get() == 2) {
                throw new RetryException("not yet", Duration.ZERO);
            }
            return null;
        });
        subscription.config().retry(RetryPolicy.fixed(3, Duration.ZERO));
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        await().atMost(10, TimeUnit.SECONDS).until(() -> stats(bus, "user.created").acked() == 1);
        assertThat(calls).hasValue(3);
    }

    @Test
    void aRetryItsHandlerDelayedIsDeliveredAtItsDueTimeNotAtALaterLook() {
        EventBus bus = open(BusTopology.empty());
        List<Long> calledAt = new java.util.concurrent.CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, (event, context) -> {
            calledAt.add(System.nanoTime());
            if (calledAt.size() == 1) {
                throw new RetryException("later", Duration.ofMillis(500));
            }
            return null;
        });
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        await().atMost(10, TimeUnit.SECONDS).until(() -> stats(bus, "user.created").acked() == 1);
        Duration between = Duration.ofNanos(calledAt.get(1) - calledAt.get(0));
        assertThat(between).as("never early").isGreaterThanOrEqualTo(Duration.ofMillis(499));
        assertThat(between).as("woken at the due time").isLessThan(Duration.ofMillis(1_500));
    }

    @Test
    void theBudgetOfTheRetryPolicyEndsInADeadLetter() {
        EventBus bus = open(BusTopology.empty());
        Subscription subscription = bus.handler(UserCreated.class, (event, context) -> {
            throw new RetryException("still down");
        });
        subscription.config().retry(RetryPolicy.fixed(2, Duration.ZERO));
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        FailedDelivery failed = awaitOneDeadLetter(subscription);
        assertThat(failed.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
        assertThat(failed.attempts()).isEqualTo(2);
        assertThat(failed.lastError()).isEqualTo("still down");
        assertThat(failed.event()).isEqualTo(new UserCreated("u-1", "Ann"));
    }

    @Test
    void theRetryPolicysBudgetIsWrittenOnEveryClaimOverTheStoredOne() throws SQLException {
        EventBus producer = open(EventBus.builder(database()).delivery(new DeliveryPolicy(Duration.ofSeconds(30), 9))
                .topology(BusTopology.builder().route("mailer", UserCreated.class).build()));
        DispatchReceipt receipt = producer.dispatch(new UserCreated("u-1", "Ann"));
        assertThat(count("SELECT max_attempts FROM messages WHERE id = " + receipt.messageIds().get(0))).isEqualTo(10);
        EventBus consumer = open(EventBus.builder(database())
                .topology(BusTopology.builder().route("mailer", UserCreated.class).build()));
        AtomicInteger calls = new AtomicInteger();
        Subscription mailer = consumer.subscription("mailer").handler(UserCreated.class, (event, context) -> {
            calls.incrementAndGet();
            throw new IllegalStateException("down");
        });
        mailer.config().retry(RetryPolicy.fixed(2, Duration.ZERO));
        consumer.start();

        FailedDelivery failed = awaitOneDeadLetter(mailer);
        assertThat(failed.attempts()).isEqualTo(2);
        assertThat(calls).hasValue(2);
        assertThat(count("SELECT max_attempts FROM messages WHERE id = " + failed.id())).isEqualTo(2);
    }

    @Test
    void aLowerBudgetFailsADueDeliveryThatSpentItWithoutRunningTheHandler() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("mailer", UserCreated.class).build());
        DispatchReceipt receipt = bus.dispatch(new UserCreated("u-1", "Ann"));
        execute("UPDATE messages SET attempts = 3 WHERE id = " + receipt.messageIds().get(0));
        AtomicInteger calls = new AtomicInteger();
        Subscription mailer = bus.subscription("mailer").handler(UserCreated.class, (event, context) -> {
            calls.incrementAndGet();
            return null;
        });
        mailer.config().retry(RetryPolicy.fixed(2, Duration.ZERO));
        bus.start();

        FailedDelivery failed = awaitOneDeadLetter(mailer);
        assertThat(failed.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
        assertThat(failed.attempts()).isEqualTo(3);
        assertThat(calls).hasValue(0);
    }

    @Test
    void aHigherBudgetLetsAnExpiredLeaseThatSpentTheOldOneRunAgain() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("mailer", UserCreated.class).build());
        DispatchReceipt receipt = bus.dispatch(new UserCreated("u-1", "Ann"));
        execute("UPDATE messages SET status = 1, attempts = 4, max_attempts = 4, receipt = 'gone', lease_until = 1 "
                + "WHERE id = " + receipt.messageIds().get(0));
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Subscription mailer = bus.subscription("mailer").handler(UserCreated.class, (event, context) -> {
            attempts.add(context.attempt());
            return null;
        });
        mailer.config().retry(RetryPolicy.fixed(6, Duration.ZERO));
        bus.start();

        await().atMost(10, TimeUnit.SECONDS).until(() -> stats(bus, "mailer").acked() == 1);
        assertThat(attempts).containsExactly(5);
    }

    @Test
    void aRejectionIsADeadLetterWithItsCategoryAndBeatsPermanentErrors() {
        EventBus bus = open(BusTopology.empty());
        Subscription subscription = bus.handler(UserCreated.class, (event, context) -> {
            throw new RejectException("user is banned", "policy");
        });
        subscription.config().permanentErrors(RejectException.class);
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        FailedDelivery failed = awaitOneDeadLetter(subscription);
        assertThat(failed.reason()).isEqualTo(FailureReason.REJECTED);
        assertThat(failed.lastError()).isEqualTo("user is banned");
        assertThat(failed.failureCategory()).isEqualTo("policy");
        assertThat(failed.eventType()).isEqualTo("user.created");
    }

    @Test
    void aPermanentErrorIsADeadLetterAtOnce() {
        EventBus bus = open(BusTopology.empty());
        Subscription subscription = bus.handler(UserCreated.class, (event, context) -> {
            throw new UnsupportedOperationException("no such user");
        });
        subscription.config().permanentErrors(UnsupportedOperationException.class);
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        FailedDelivery failed = awaitOneDeadLetter(subscription);
        assertThat(failed.reason()).isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(failed.lastError()).startsWith("permanent failure: ").contains("no such user");
    }

    @Test
    void aHandlerPastItsTimeoutIsInterruptedAndEndsAsHandlerTimeout() {
        EventBus bus = open(EventBus.builder(database()).delivery(new DeliveryPolicy(Duration.ofSeconds(30), 0)));
        Subscription subscription = bus.handler(UserCreated.class, (event, context) -> {
            Thread.sleep(60_000);
            return null;
        });
        subscription.config().handlerTimeout(Duration.ofMillis(50));
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        FailedDelivery failed = awaitOneDeadLetter(subscription);
        assertThat(failed.reason()).isEqualTo(FailureReason.HANDLER_TIMEOUT);
        assertThat(failed.lastError()).isEqualTo("handler timeout after 0.05 seconds");
    }

    @Test
    void anEventWithoutAHandlerHereIsANoHandlerDeadLetter() {
        EventBus bus = open(BusTopology.builder().route("audit", UserCreated.class, UserWelcomed.class).build());
        Subscription audit = bus.subscription("audit").handler(UserCreated.class, (event, context) -> null);
        bus.register(UserWelcomed.class);
        bus.start();

        bus.dispatch(new UserWelcomed("u-1"));

        FailedDelivery failed = awaitOneDeadLetter(audit);
        assertThat(failed.reason()).isEqualTo(FailureReason.NO_HANDLER);
        assertThat(failed.lastError()).isEqualTo("no handler registered for 'user.welcomed' in 'audit' in this process");
    }

    @Test
    void anExactHandlerWinsOverTheWildcard() {
        EventBus bus = open(BusTopology.builder().route("audit", "*").build());
        List<String> seen = new CopyOnWriteArrayList<>();
        bus.register(UserWelcomed.class);
        bus.on("*", "audit", (event, context) -> {
            seen.add("wildcard:" + context.eventType());
            return null;
        });
        bus.subscription("audit").handler(UserCreated.class, (event, context) -> {
            seen.add("exact:" + event.userId());
            return null;
        });
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));
        bus.dispatch(new UserWelcomed("u-2"));

        await().atMost(10, TimeUnit.SECONDS).until(() -> stats(bus, "audit").acked() == 2);
        assertThat(seen).containsExactlyInAnyOrder("exact:u-1", "wildcard:user.welcomed");
    }

    @Test
    void unreadableDeliveriesGetTheirOwnReasons() {
        EventBus producer = open(BusTopology.builder().route("audit", "*").build());
        producer.dispatch(new UserWelcomed("u-1"));
        try (SimpleQueue<byte[]> raw = SimpleQueue.builder(database(), Serializer.bytes()).name("__bus__:default:audit")
                .build()) {
            raw.putMany(List.of(EnqueueItem.of("[1, 2]".getBytes(StandardCharsets.UTF_8)),
                    EnqueueItem.of("{\"payload\": {}}".getBytes(StandardCharsets.UTF_8)),
                    EnqueueItem.of(("{\"event_id\": \"" + UUID.randomUUID() + "\", \"event_type\": \"user.created\", "
                            + "\"event_created_at\": \"2026-07-25T10:15:30+00:00\", \"payload\": {\"userId\": "
                            + "[1]}}").getBytes(StandardCharsets.UTF_8))));
        }
        EventBus consumer = open(EventBus.builder(database()).name("default")
                .topology(BusTopology.builder().route("audit", "*").build()));
        consumer.register(UserCreated.class);
        Subscription audit = consumer.subscription("audit");
        consumer.on("*", "audit", (event, context) -> null);
        consumer.start();

        await().atMost(10, TimeUnit.SECONDS).until(() -> audit.listFailed().size() == 4);
        assertThat(audit.listFailed()).extracting(FailedDelivery::reason).containsExactly(
                FailureReason.UNKNOWN_EVENT_TYPE, FailureReason.INVALID_ENVELOPE, FailureReason.INVALID_ENVELOPE,
                FailureReason.INVALID_PAYLOAD);
        assertThat(audit.listFailed().get(0).lastError()).isEqualTo("unknown event: 'user.welcomed'");
        assertThat(audit.listFailed().get(0).inspectionError()).isEqualTo("unknown event: 'user.welcomed'");
    }

    @Test
    void aReturnedEventIsAcknowledgedAndEmittedTogetherAsAChild() throws Exception {
        EventBus bus = open(BusTopology.empty());
        CountDownLatch welcomed = new CountDownLatch(1);
        List<EventContext> children = new CopyOnWriteArrayList<>();
        List<EventContext> parents = new CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, (event, context) -> {
            parents.add(context);
            return new UserWelcomed(event.userId());
        });
        bus.handler(UserWelcomed.class, (event, context) -> {
            children.add(context);
            welcomed.countDown();
            return null;
        });
        bus.start();

        DispatchReceipt root = bus.dispatch(new UserCreated("u-1", "Ann"));

        assertThat(welcomed.await(10, TimeUnit.SECONDS)).isTrue();
        EventContext parent = parents.get(0);
        EventContext child = children.get(0);
        assertThat(child.causationId()).isEqualTo(parent.eventId());
        assertThat(child.correlationId()).isEqualTo(parent.correlationId()).isEqualTo(root.eventId());
        assertThat(count("SELECT COUNT(*) FROM event_bus_delivery_edges WHERE parent_message_id = "
                + root.messageIds().get(0))).isEqualTo(1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> stats(bus, "user.created").acked() == 1);
    }

    @Test
    void aStaleReceiptRollsTheEmissionBack() throws Exception {
        EventBus bus = open(BusTopology.builder().route("mailer", UserCreated.class).route("welcome",
                UserWelcomed.class).build());
        DispatchReceipt parent = bus.dispatch(new UserCreated("u-1", "Ann"));
        EventMetadata metadata = EventMetadata.root();
        Fanout.Plan plan = bus.dispatcher().plan(List.of(new UserWelcomed("u-1")), metadata);
        ClaimedRow stale = new ClaimedRow(parent.messageIds().get(0), new byte[0], 1, "not-the-receipt",
                System.currentTimeMillis() + 60_000, Map.of(), 0, 0, 0, null);
        CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();

        bus.dispatcher().emitLater(bus.dispatcher().runtime().claimEngine("mailer", null), stale, plan,
                new DeliveryRun(metadata, 1, "mailer", "user.created", Map.of()),
                (settled, failure) -> outcome.complete(settled));

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(JobOutcome.DISCARDED);
        assertThat(count("SELECT COUNT(*) FROM messages WHERE queue = '__bus__:default:welcome'")).isZero();
        assertThat(count("SELECT COUNT(*) FROM event_bus_delivery_edges")).isZero();
    }

    @Test
    void anEmittedIdentityConflictFailsTheParentAndEmitsNothing() throws SQLException {
        EventBus bus = open(BusTopology.builder().route("rows", ImportRow.class).build());
        bus.dispatch(new ImportRow("2026-07", "42", "Ann"));
        bus.handler(UserCreated.class, (event, context) -> new ImportRow("2026-07", "42", "Bob"));
        bus.start();

        bus.dispatch(new UserCreated("u-1", "Ann"));

        FailedDelivery failed = awaitOneDeadLetter(bus.subscription("user.created"));
        assertThat(failed.reason()).isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
        assertThat(failed.failureCategory()).isEqualTo("deduplication_conflict");
        assertThat(count("SELECT COUNT(*) FROM messages WHERE queue = '__bus__:default:rows'")).isEqualTo(1);
    }

    @Test
    void registrationIsRefusedWhenItCannotWork() {
        EventBus bus = open(BusTopology.builder().route("audit", UserCreated.class).build());

        assertThatThrownBy(() -> bus.subscription("nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nope' is not declared");
        assertThatThrownBy(() -> bus.on("user.welcomed", "audit", (event, context) -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not route 'user.welcomed'");
        bus.handler(UserCreated.class, "audit", (event, context) -> null);
        assertThatThrownBy(() -> bus.handler(UserCreated.class, "audit", (event, context) -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already");
        assertThatThrownBy(() -> bus.handler(UserCreated.class, "bad name", (event, context) -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subscription 'bad name'");
        bus.start();
        assertThatThrownBy(() -> bus.subscription("audit").config().concurrency(2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("consumes already");
    }

    @Test
    void anIdentityNamingAFieldTheClassLacksIsRefusedAtRegistration() {
        @BusEvent(identity = "missing")
        record Broken(String present) {
        }
        EventBus bus = open(BusTopology.empty());

        assertThatThrownBy(() -> bus.register(Broken.class)).isInstanceOf(InvalidEventIdentityException.class)
                .hasMessageContaining("'missing'");
        record Clashing(String event_type) {
        }
        assertThatThrownBy(() -> bus.register(Clashing.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 'event_type', which the envelope keeps as metadata");
        assertThatThrownBy(() -> bus.register(Untyped.class.getSuperclass()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void retryFailedWorksOnlyOnTheSubscriptionsOwnDeadLetters() {
        EventBus bus = open(BusTopology.empty());
        Subscription subscription = bus.handler(UserCreated.class, (event, context) -> {
            throw new RejectException("no");
        });
        bus.start();
        bus.dispatch(new UserCreated("u-1", "Ann"));
        FailedDelivery failed = awaitOneDeadLetter(subscription);
        bus.stop();

        assertThatThrownBy(() -> open(BusTopology.builder().route("other", UserCreated.class).build())
                .subscription("other").retryFailed(failed.id())).isInstanceOf(io.localqueue.JobNotFoundException.class);
        subscription.retryFailed(failed.id());
        assertThat(stats(bus, "user.created").ready()).isEqualTo(1);
    }

    @Test
    void aStopInterruptsTheHandlersOfEverySubscriptionTogetherAndHandsTheirDeliveriesBackUncounted()
            throws InterruptedException {
        EventBus bus = open(BusTopology.empty());
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        List<String> interruptedTogether = new CopyOnWriteArrayList<>();
        List<String> redelivered = new CopyOnWriteArrayList<>();
        AtomicInteger stops = new AtomicInteger();
        EventHandler<Object> untilInterrupted = (event, context) -> {
            if (stops.get() > 0) {
                redelivered.add(context.subscription() + " attempt " + context.attempt());
                return null;
            }
            running.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException stopped) {
                interrupted.countDown();
                // The other subscription's handler is interrupted at the same moment, not one wait later.
                if (interrupted.await(500, TimeUnit.MILLISECONDS)) {
                    interruptedTogether.add(context.subscription());
                }
                throw stopped;
            }
            return null;
        };
        bus.handler(UserCreated.class, untilInterrupted);
        bus.handler(UserWelcomed.class, untilInterrupted);
        bus.start();
        bus.dispatch(new UserCreated("u-1", "Ann"));
        bus.dispatch(new UserWelcomed("u-1"));
        assertThat(running.await(10, TimeUnit.SECONDS)).as("both handlers run").isTrue();

        assertThat(bus.stop(Duration.ofMillis(100))).as("handlers were still running").isFalse();
        stops.incrementAndGet();

        assertThat(interruptedTogether).containsExactlyInAnyOrder("user.created", "user.welcomed");
        assertThat(stats(bus, "user.created")).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(stats(bus, "user.welcomed")).isEqualTo(new QueueStats(1, 0, 0, 0));
        bus.start();
        await().atMost(10, TimeUnit.SECONDS).until(() -> redelivered.size() == 2);
        assertThat(redelivered).as("the interrupted deliveries were not counted")
                .containsExactlyInAnyOrder("user.created attempt 1", "user.welcomed attempt 1");
    }

    @Test
    void purgeDeletesTheSubscriptionsOwnSettledDeliveriesOnly() {
        io.localqueue.TestClock clock = new io.localqueue.TestClock();
        EventBus bus = open(EventBus.builder(database()).clock(clock).topology(BusTopology.builder()
                .route("mailer", UserCreated.class).route("audit", "*").build()));
        Subscription mailer = bus.subscription("mailer").handler(UserCreated.class, (event, context) -> {
            if (event.name().isEmpty()) {
                throw new RejectException("no name");
            }
            return null;
        });
        bus.subscription("audit").handler(UserCreated.class, (event, context) -> null);
        bus.start();
        bus.dispatchAll(List.of(new UserCreated("u-1", "Ann"), new UserCreated("u-2", "Bob"),
                new UserCreated("u-3", "")));
        await().atMost(10, TimeUnit.SECONDS).until(() -> mailer.stats().acked() == 2 && mailer.stats().failed() == 1
                && stats(bus, "audit").acked() == 3);
        clock.advance(Duration.ofMinutes(1));

        assertThat(mailer.purge(Duration.ofHours(1), true)).as("too young").isZero();
        assertThat(mailer.purge(Duration.ZERO, false)).isEqualTo(2);
        assertThat(mailer.listFailed()).hasSize(1);
        assertThat(mailer.purge(Duration.ZERO, true)).isEqualTo(1);
        assertThat(stats(bus, "audit").acked()).isEqualTo(3);
        assertThatThrownBy(() -> mailer.purge(Duration.ofSeconds(-1), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("olderThan");
    }

    private FailedDelivery awaitOneDeadLetter(Subscription subscription) {
        await().atMost(10, TimeUnit.SECONDS).until(() -> subscription.listFailed().size() == 1);
        return subscription.listFailed().get(0);
    }

    private QueueStats stats(EventBus bus, String subscription) {
        return bus.subscription(subscription).stats();
    }

    private List<String> queues() throws SQLException {
        List<String> queues = new ArrayList<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT DISTINCT queue FROM messages")) {
            while (rows.next()) {
                queues.add(rows.getString(1));
            }
        }
        return queues;
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private long count(String sql) throws SQLException {
        return Long.parseLong(rowValue(sql));
    }

    /** A stored payload as text, read as bytes, which both stores keep it as. */
    private String payload(long id) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT payload FROM messages WHERE id = " + id)) {
            rows.next();
            return new String(rows.getBytes(1), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private String rowValue(String sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

}
