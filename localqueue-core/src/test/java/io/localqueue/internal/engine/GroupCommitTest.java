package io.localqueue.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.DurabilityMode;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueStats;
import io.localqueue.TestClock;
import io.localqueue.WorkerLog;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.store.sqlite.SqliteQueueStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one batching mechanism: settlements and renewals submitted together share a transaction, each keeps its own
 * fence and result, and a caller that waits returns only after the commit that holds its change.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupCommitTest {

    private static final String QUEUE = "batched";
    private static final String CHILDREN = "emitted";

    @TempDir
    Path dir;

    private SqliteQueueStore sqlite;
    private CountingStore store;
    private GroupCommit groupCommit;

    @BeforeEach
    void open() {
        sqlite = SqliteQueueStore.open(FileLocation.prepare(dir).directory());
        store = new CountingStore(sqlite);
        groupCommit = new GroupCommit(store);
    }

    @AfterEach
    void close() {
        groupCommit.close();
        sqlite.close();
    }

    @Test
    void eachSettlementKeepsItsOwnFenceInASharedTransaction() {
        List<ClaimedRow> rows = claim(3);
        long now = System.currentTimeMillis();
        List<Settlement> settlements = List.of(
                Settlement.ack(QUEUE, rows.get(0).id(), rows.get(0).receipt(), now),
                Settlement.ack(QUEUE, rows.get(1).id(), "not-its-receipt", now),
                Settlement.deadLetter(QUEUE, rows.get(2).id(), rows.get(2).receipt(), now, "bad",
                        FailureReason.PERMANENT_HANDLER_ERROR, null));
        List<JobOutcome> outcomes = new ArrayList<>();

        for (Settlement settlement : settlements) {
            groupCommit.settleLater(settlement, DurabilityMode.RELAXED, Clock.systemUTC(), Long.MAX_VALUE,
                    null, (outcome, failure) -> outcomes.add(outcome));
        }
        groupCommit.flush();

        assertThat(outcomes).containsExactlyInAnyOrder(JobOutcome.ACKED, JobOutcome.DISCARDED,
                JobOutcome.DEAD_LETTERED);
        assertThat(sqlite.stats(QUEUE)).isEqualTo(new QueueStats(0, 1, 1, 1));
    }

    @Test
    void settlementsThatWaitWhileAnotherCommitsShareTheNextTransaction() throws Exception {
        List<ClaimedRow> rows = claim(5);
        CountDownLatch firstCommitHeld = new CountDownLatch(1);
        CountDownLatch releaseFirstCommit = new CountDownLatch(1);
        store.holdFirstWrite(firstCommitHeld, releaseFirstCommit);
        ExecutorService pool = Executors.newFixedThreadPool(rows.size());
        try {
            List<Future<JobOutcome>> outcomes = new ArrayList<>();
            outcomes.add(pool.submit(() -> ack(rows.get(0))));
            assertThat(firstCommitHeld.await(10, TimeUnit.SECONDS)).isTrue();
            List<Thread> waiting = new ArrayList<>();
            for (ClaimedRow row : rows.subList(1, rows.size())) {
                CountDownLatch started = new CountDownLatch(1);
                AtomicReference<Thread> thread = new AtomicReference<>();
                outcomes.add(pool.submit(() -> {
                    thread.set(Thread.currentThread());
                    started.countDown();
                    return ack(row);
                }));
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                waiting.add(thread.get());
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> waiting.stream()
                    .allMatch(thread -> thread.getState() == Thread.State.WAITING));

            releaseFirstCommit.countDown();
            for (Future<JobOutcome> outcome : outcomes) {
                assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(JobOutcome.ACKED);
            }

            assertThat(store.writes.get()).as("the first commit, then one for the four that waited").isEqualTo(2);
            assertThat(sqlite.stats(QUEUE).acked()).isEqualTo(5);
        } finally {
            releaseFirstCommit.countDown();
            pool.shutdownNow();
        }
    }

    private JobOutcome ack(ClaimedRow row) {
        return groupCommit.settle(Settlement.ack(QUEUE, row.id(), row.receipt(), System.currentTimeMillis()),
                DurabilityMode.RELAXED);
    }

    @Test
    void renewalsAndSettlementsShareTheMechanism() {
        List<ClaimedRow> rows = claim(2);
        long now = System.currentTimeMillis();

        assertThat(groupCommit.renew(new Renewal(QUEUE, rows.get(0).id(), rows.get(0).receipt(), now, now + 90_000),
                DurabilityMode.RELAXED)).isTrue();
        assertThat(groupCommit.renew(new Renewal(QUEUE, rows.get(1).id(), "stale", now, now + 90_000),
                DurabilityMode.RELAXED)).isFalse();
        assertThat(groupCommit.settle(Settlement.release(QUEUE, rows.get(1).id(), rows.get(1).receipt(), now),
                DurabilityMode.RELAXED)).isEqualTo(JobOutcome.RETRIED);
        assertThat(sqlite.stats(QUEUE)).isEqualTo(new QueueStats(1, 1, 0, 0));
    }

    @Test
    void aSettlementHandedOverIsReportedOnTheCommitterThreadAfterItsCommit() throws Exception {
        ClaimedRow row = claim(1).get(0);
        AtomicReference<String> reportedOn = new AtomicReference<>();
        AtomicReference<QueueStats> seenAtReport = new AtomicReference<>();
        CountDownLatch reported = new CountDownLatch(1);

        groupCommit.settleLater(Settlement.ack(QUEUE, row.id(), row.receipt(), System.currentTimeMillis()),
                DurabilityMode.RELAXED, Clock.systemUTC(), Long.MAX_VALUE, null, (outcome, failure) -> {
                    reportedOn.set(Thread.currentThread().getName());
                    seenAtReport.set(sqlite.stats(QUEUE));
                    reported.countDown();
                });

        assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(reportedOn.get()).startsWith("localqueue-commit");
        assertThat(seenAtReport.get().acked()).as("committed before it was reported").isEqualTo(1);
    }

    @Test
    void aFailedTransactionFailsTheChangesWhoseCallersWait() {
        ClaimedRow row = claim(1).get(0);
        sqlite.close();

        assertThatThrownBy(() -> groupCommit.settle(
                Settlement.ack(QUEUE, row.id(), row.receipt(), System.currentTimeMillis()), DurabilityMode.RELAXED))
                .isInstanceOf(LocalQueueException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> groupCommit.renew(new Renewal(QUEUE, row.id(), row.receipt(),
                System.currentTimeMillis(), System.currentTimeMillis() + 1_000), DurabilityMode.RELAXED))
                .isInstanceOf(LocalQueueException.class).hasMessageContaining("closed");
    }

    @Test
    void aSettlementHandedOverOutlivesADatabaseThatFailsWithinItsLease() throws Exception {
        ClaimedRow row = claim(1).get(0);
        store.failWrites(true);
        AtomicReference<JobOutcome> reported = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (WorkerLog log = new WorkerLog(GroupCommit.class)) {
            groupCommit.settleLater(Settlement.ack(QUEUE, row.id(), row.receipt(), System.currentTimeMillis()),
                    DurabilityMode.RELAXED, Clock.systemUTC(), row.leaseUntil(), null, (outcome, failure) -> {
                        reported.set(outcome);
                        done.countDown();
                    });
            await().atMost(Duration.ofSeconds(20)).until(() -> store.failedWrites.get() >= 3);
            assertThat(done.getCount()).as("not reported while the database fails").isEqualTo(1);
            store.failWrites(false);

            assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(reported.get()).isEqualTo(JobOutcome.ACKED);
            assertThat(sqlite.stats(QUEUE).acked()).isEqualTo(1);
            assertThat(log.messages()).as("one line for the run of failures naming the job, one for the end")
                    .filteredOn(line -> line.contains("failed; trying again until each one's lease ends"))
                    .singleElement().asString().contains("queue '" + QUEUE + "', job(s) " + row.id());
            assertThat(log.messages()).filteredOn(line -> line.contains("works again after")).singleElement()
                    .asString().contains("1 settlement(s) recorded late, 0 given up");
            assertThat(log.messages()).hasSize(2);
        }
    }

    @Test
    void aSettlementHandedOverIsGivenUpOnceItsLeaseEndsWhileTheDatabaseFails() throws Exception {
        ClaimedRow row = claim(1).get(0);
        TestClock clock = new TestClock(Instant.ofEpochMilli(System.currentTimeMillis()));
        store.failWrites(true);
        AtomicReference<RuntimeException> reported = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (WorkerLog log = new WorkerLog(GroupCommit.class)) {
            groupCommit.settleLater(Settlement.ack(QUEUE, row.id(), row.receipt(), clock.millis()),
                    DurabilityMode.RELAXED, clock, clock.millis() + 60_000, null, (outcome, failure) -> {
                        reported.set(failure);
                        done.countDown();
                    });
            await().atMost(Duration.ofSeconds(20)).until(() -> store.failedWrites.get() >= 2);
            clock.advance(Duration.ofMinutes(1));

            assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(reported.get()).hasMessageContaining("lease ended");
            assertThat(log.messages()).filteredOn(line -> line.contains("Gave up recording 1 settlement(s)"))
                    .singleElement().asString().contains("job(s) " + row.id());
        }
        store.failWrites(false);
        assertThat(sqlite.stats(QUEUE).processing()).as("the job keeps its lease until it ends").isEqualTo(1);
    }

    @Test
    void aSettlementWhoseLeaseEndsDuringAFailedAttemptIsGivenUpInOneLineNamingIt() throws Exception {
        ClaimedRow row = claim(1).get(0);
        TestClock clock = new TestClock(Instant.ofEpochMilli(System.currentTimeMillis()));
        store.failWrites(() -> clock.advance(Duration.ofSeconds(40))); // each attempt outlasts its pool's wait
        AtomicReference<RuntimeException> reported = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (WorkerLog log = new WorkerLog(GroupCommit.class)) {
            groupCommit.settleLater(Settlement.ack(QUEUE, row.id(), row.receipt(), clock.millis()),
                    DurabilityMode.RELAXED, clock, clock.millis() + 60_000, null, (outcome, failure) -> {
                        reported.set(failure);
                        done.countDown();
                    });

            assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(reported.get()).isNotNull();
            assertThat(log.messages()).filteredOn(line -> line.contains("Gave up recording 1 settlement(s)"))
                    .singleElement().asString().contains("job(s) " + row.id());
        }
        store.failWrites(false);
    }

    @Test
    void anAcknowledgementsWritesCommitWithItAndOneThatThrowsFailsAloneWithItsAcknowledgement() throws Exception {
        List<ClaimedRow> rows = claim(4);
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        store.holdFirstWrite(firstHeld, releaseFirst);
        List<String> reports = new CopyOnWriteArrayList<>();
        CountDownLatch reported = new CountDownLatch(4);
        Settled report = (outcome, failure) -> {
            reports.add(outcome != null ? outcome.name() : failure.getMessage());
            reported.countDown();
        };
        RuntimeException conflict = new IllegalStateException("this emission conflicts");

        acknowledgeLater(rows.get(0), null, report);
        assertThat(firstHeld.await(10, TimeUnit.SECONDS)).isTrue();
        acknowledgeLater(rows.get(1), writes -> emit(writes, "child-of-1"), report);
        acknowledgeLater(rows.get(2), writes -> {
            emit(writes, "child-of-2");
            throw conflict;
        }, report);
        acknowledgeLater(rows.get(3), writes -> emit(writes, "child-of-3"), report);
        releaseFirst.countDown();

        assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(reports).containsExactlyInAnyOrder("ACKED", "ACKED", "ACKED", "this emission conflicts");
        assertThat(store.writes.get()).as("the held one, the three rolled back, the two again").isEqualTo(3);
        assertThat(sqlite.stats(QUEUE)).as("the conflicting one keeps its lease").isEqualTo(new QueueStats(0, 1, 3, 0));
        assertThat(payloads(CHILDREN)).containsExactlyInAnyOrder("\"child-of-1\"", "\"child-of-3\"");
    }

    @Test
    void anAcknowledgementWhoseLeaseIsGoneRunsNoneOfItsWrites() throws Exception {
        ClaimedRow row = claim(1).get(0);
        CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();

        groupCommit.settleLater(Settlement.ack(QUEUE, row.id(), "stale", System.currentTimeMillis()),
                DurabilityMode.RELAXED, Clock.systemUTC(), row.leaseUntil(), writes -> emit(writes, "child"),
                (settled, failure) -> outcome.complete(settled));

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(JobOutcome.DISCARDED);
        assertThat(payloads(CHILDREN)).isEmpty();
    }

    @Test
    void anAcknowledgementWithWritesOutlivesADatabaseThatFailsAndCommitsThemOnce() throws Exception {
        ClaimedRow row = claim(1).get(0);
        store.failWrites(true);
        CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();
        try (WorkerLog log = new WorkerLog(GroupCommit.class)) {
            acknowledgeLater(row, writes -> emit(writes, "child"), (settled, failure) -> outcome.complete(settled));
            await().atMost(Duration.ofSeconds(20)).until(() -> store.failedWrites.get() >= 2);
            assertThat(outcome).isNotDone();
            store.failWrites(false);

            assertThat(outcome.get(20, TimeUnit.SECONDS)).isEqualTo(JobOutcome.ACKED);
        }
        assertThat(sqlite.stats(QUEUE).acked()).isEqualTo(1);
        assertThat(payloads(CHILDREN)).containsExactly("\"child\"");
    }

    @Test
    void aReportThatSettlesAgainOnTheCommittingThreadDoesNotWaitForRoomOnlyThatThreadCanFree() throws Exception {
        List<ClaimedRow> rows = claim(GroupCommit.MAX_WAITING);
        ClaimedRow conflicting = rows.get(0);
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        store.holdFirstWrite(firstHeld, releaseFirst);
        CompletableFuture<JobOutcome> deadLettered = new CompletableFuture<>();
        CountDownLatch acked = new CountDownLatch(rows.size() - 1);

        acknowledgeLater(conflicting, writes -> {
            throw new IllegalStateException("conflict");
        }, (outcome, failure) -> groupCommit.settleLater(Settlement.deadLetter(QUEUE, conflicting.id(),
                conflicting.receipt(), System.currentTimeMillis(), failure.getMessage(),
                FailureReason.PERMANENT_HANDLER_ERROR, null), DurabilityMode.RELAXED, Clock.systemUTC(),
                conflicting.leaseUntil(), null, (settled, again) -> deadLettered.complete(settled)));
        assertThat(firstHeld.await(10, TimeUnit.SECONDS)).isTrue();
        for (ClaimedRow row : rows.subList(1, rows.size())) {
            acknowledgeLater(row, null, (outcome, failure) -> acked.countDown());
        }
        assertThat(groupCommit.room()).as("every place taken while the first commit is held").isZero();
        releaseFirst.countDown();

        assertThat(deadLettered.get(10, TimeUnit.SECONDS)).isEqualTo(JobOutcome.DEAD_LETTERED);
        assertThat(acked.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(groupCommit.room()).isEqualTo(GroupCommit.MAX_WAITING);
    }

    private void acknowledgeLater(ClaimedRow row, @Nullable StoreWork<?> with, Settled done) {
        groupCommit.settleLater(Settlement.ack(QUEUE, row.id(), row.receipt(), System.currentTimeMillis()),
                DurabilityMode.RELAXED, Clock.systemUTC(), row.leaseUntil(), with, done);
    }

    private static @Nullable Object emit(QueueWrites writes, String child) {
        writes.enqueue(CHILDREN, List.of(new NewJob(("\"" + child + "\"").getBytes(StandardCharsets.UTF_8), null)),
                3, System.currentTimeMillis(), 0);
        return null;
    }

    private List<String> payloads(String queue) {
        return sqlite.jobsPut(queue, 0, Long.MAX_VALUE, 100).stream()
                .map(job -> new String(job.payload(), StandardCharsets.UTF_8)).toList();
    }

    private List<ClaimedRow> claim(int count) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(new NewJob(("\"job-" + i + "\"").getBytes(StandardCharsets.UTF_8), null));
        }
        long now = System.currentTimeMillis();
        return sqlite.write(WriteOptions.standard("test", DurabilityMode.RELAXED), () -> { }, writes -> {
            writes.enqueue(QUEUE, jobs, 3, now, 0);
            return writes.claim(new ClaimRequest(QUEUE, now, now + 60_000, count, true, 0)).rows();
        });
    }

    /**
     * The SQLite store, counting its write transactions; the first can be held before it starts, and every write
     * can be made to fail as a database out of reach would.
     */
    private static final class CountingStore extends ForwardingStore {
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger failedWrites = new AtomicInteger();
        private volatile boolean failing;
        private volatile Runnable during = () -> { };
        private volatile CountDownLatch held;
        private volatile CountDownLatch release;

        CountingStore(QueueStore target) {
            super(target);
        }

        void holdFirstWrite(CountDownLatch held, CountDownLatch release) {
            writes.set(0);
            this.held = held;
            this.release = release;
        }

        void failWrites(boolean fail) {
            failing = fail;
        }

        /** Runs {@code during} inside every failing write, as time passes while a pool waits for a connection. */
        void failWrites(Runnable during) {
            this.during = during;
            failing = true;
        }

        @Override
        public <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work) {
            if (failing) {
                during.run();
                failedWrites.incrementAndGet();
                throw new LocalQueueException("'" + options.transaction() + "' failed: the database server cannot "
                        + "be reached");
            }
            if (writes.incrementAndGet() == 1 && held != null) {
                held.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.write(options, ensureOpen, work);
        }
    }
}
