package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.QueueStats;
import io.localqueue.TestDatabases;
import io.localqueue.WorkerLog;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A subscription's consumer behaves as a {@code Worker} does: failing claims are logged once for all its threads and
 * waited out in a pause a stop ends, and a local pause stops its claims while running handlers finish.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SubscriptionConsumerTest extends BusTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @BusEvent(name = "order.placed")
    record OrderPlaced(int number) {
    }

    private EventBus bus() {
        return open(EventBus.builder(database()).topology(BusTopology.builder()
                .route("billing", OrderPlaced.class).build()));
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void claimTroubleOfAConsumerWithSeveralThreadsIsLoggedOnceUntilClaimsWorkAgain() throws Exception {
        EventBus bus = bus();
        CountDownLatch handled = new CountDownLatch(1);
        bus.subscription("billing").config().concurrency(3);
        bus.handler(OrderPlaced.class, "billing", (event, context) -> {
            handled.countDown();
            return null;
        });
        bus.dispatch(new OrderPlaced(1));
        try (WorkerLog log = new WorkerLog(Subscription.class)) {
            // each claim fails only after a few hundred milliseconds, longer than a thread waits for another's claim
            executeOnFile("CREATE TRIGGER slow_failure BEFORE UPDATE ON messages BEGIN SELECT CASE WHEN (WITH RECURSIVE "
                    + "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c) > 0 "
                    + "THEN RAISE(ABORT, 'claims fail slowly') END; END");
            bus.start();
            await().atMost(BOUND).until(() -> log.contains("failed to claim"));
            await().during(Duration.ofMillis(1_500)).atMost(BOUND)
                    .until(() -> log.count("failed to claim") == 1 && !log.contains("again after"));
            executeOnFile("DROP TRIGGER slow_failure");
            assertThat(handled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(log.count("failed to claim")).as("one line for the run, whatever the threads' count")
                    .isEqualTo(1);
            assertThat(log.messages()).anyMatch(line -> line.startsWith("Subscription 'billing' of bus 'default' "
                    + "claims from queue '__bus__:default:billing' again after"));
        }
    }

    @Test
    void aStopDuringClaimTroubleEndsThePauseAndReturnsDrainedWithinItsTimeout() throws Exception {
        EventBus bus = bus();
        bus.subscription("billing").config().concurrency(3);
        bus.handler(OrderPlaced.class, "billing", (event, context) -> null);
        try (WorkerLog log = new WorkerLog(Subscription.class)) {
            renameMessages("messages", "messages_away");
            bus.start();
            await().atMost(BOUND).until(() -> log.contains("failed to claim"));

            long start = System.nanoTime();
            assertThat(bus.stop(Duration.ofMillis(100))).as("no handler was running").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
            assertThat(bus.subscription("billing").consuming()).isFalse();
        } finally {
            renameMessages("messages_away", "messages");
        }
    }

    @Test
    void pauseReturnsAtOnceLetsTheRunningHandlerFinishAndClaimsNothingUntilResumed() throws Exception {
        EventBus bus = bus();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger handled = new AtomicInteger();
        bus.handler(OrderPlaced.class, "billing", (event, context) -> {
            if (event.number() == 0) {
                running.countDown();
                release.await();
            }
            handled.incrementAndGet();
            return null;
        });
        bus.start();
        for (int i = 0; i < 3; i++) {
            bus.dispatch(new OrderPlaced(i));
        }
        assertThat(running.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        Subscription billing = bus.subscription("billing");

        billing.pauseHere();
        assertThat(billing.isPausedHere()).isTrue();
        assertThat(billing.consuming()).isTrue();
        release.countDown();

        await().atMost(BOUND).until(() -> billing.stats().equals(new QueueStats(2, 0, 1, 0)));
        assertThat(handled.get()).isEqualTo(1);

        billing.resumeHere();
        assertThat(billing.isPausedHere()).isFalse();
        await().atMost(BOUND).until(() -> billing.stats().equals(new QueueStats(0, 0, 3, 0)));
    }

    @Test
    void aSubscriptionPausedForEveryProcessReceivesEventsButHandsNoneOutUntilResumed() throws Exception {
        EventBus bus = bus();
        AtomicInteger handled = new AtomicInteger();
        bus.handler(OrderPlaced.class, "billing", (event, context) -> {
            handled.incrementAndGet();
            return null;
        });
        Subscription billing = bus.subscription("billing");
        assertThat(billing.pause()).isTrue();
        bus.start();
        for (int i = 0; i < 3; i++) {
            bus.dispatch(new OrderPlaced(i));
        }

        await().during(Duration.ofMillis(500)).atMost(BOUND).until(() -> handled.get() == 0);
        assertThat(billing.stats().ready()).isEqualTo(3);
        assertThat(billing.isPaused()).isTrue();
        assertThat(billing.isPausedHere()).as("the local pause is another switch").isFalse();
        EventBus other = open(EventBus.builder(database()).topology(BusTopology.builder()
                .route("billing", OrderPlaced.class).build()));
        assertThat(other.subscription("billing").isPaused()).as("another bus object reads it from the store").isTrue();

        assertThat(other.subscription("billing").resume()).isTrue();
        await().atMost(BOUND).until(() -> billing.stats().equals(new QueueStats(0, 0, 3, 0)));
        assertThat(handled.get()).isEqualTo(3);
    }

    @Test
    void deliveriesClaimedAheadAreHandedBackUncountedWhenPausedAndAPauseOutlivesARestart() throws Exception {
        EventBus bus = bus();
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CopyOnWriteArrayList<Integer> attempts = new CopyOnWriteArrayList<>();
        bus.subscription("billing").config().concurrency(2);
        bus.handler(OrderPlaced.class, "billing", (event, context) -> {
            attempts.add(context.attempt());
            first.countDown();
            release.await();
            return null;
        });
        for (int i = 0; i < 20; i++) {
            bus.dispatch(new OrderPlaced(i));
        }
        bus.start();
        assertThat(first.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        Subscription billing = bus.subscription("billing");
        billing.pauseHere();
        release.countDown();

        await().atMost(BOUND).until(() -> billing.stats().processing() == 0);
        assertThat(billing.stats().ready()).isEqualTo(20 - attempts.size());
        assertThat(bus.stop(Duration.ofSeconds(5))).isTrue();
        bus.start();
        assertThat(billing.isPausedHere()).as("a pause holds until resumed, across a restart of the bus").isTrue();
        assertThat(billing.stats().ready()).isEqualTo(20 - attempts.size());

        billing.resumeHere();
        await().atMost(BOUND).until(() -> billing.stats().equals(new QueueStats(0, 0, 20, 0)));
        assertThat(attempts).as("no delivery was counted twice").hasSize(20).containsOnly(1);
    }

    private void renameMessages(String from, String to) throws SQLException {
        execute("ALTER TABLE " + from + " RENAME TO " + to);
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * Runs a statement on the file through a connection that waits for the write lock up to 30 s: the slow failing
     * claims take that lock back to back, and on a loaded machine SQLite's usual 5 s wait can end between two.
     */
    private void executeOnFile(String sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 30000");
            statement.execute(sql);
        }
    }
}
