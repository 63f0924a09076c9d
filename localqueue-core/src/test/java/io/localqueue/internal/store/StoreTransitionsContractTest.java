package io.localqueue.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.QueueTestBase;
import io.localqueue.internal.engine.Database;
import io.localqueue.internal.engine.DatabaseHandles;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each transition of the store seam, called directly on the store under test (the SQLite file, or PostgreSQL when
 * the contract suite runs there), with the results both stores must give: what the engine relies on, below the API.
 */
class StoreTransitionsContractTest extends QueueTestBase {

    private static final String QUEUE = "emails";
    private static final long NOW = 1_000_000;
    private static final long LEASE = 30_000;

    private QueueStore store;

    @BeforeEach
    void retainTheStore() {
        Database database = DatabaseHandles.retain(LocalQueueDatabase.class, database());
        closeAfterTest(database::close);
        store = database.store();
    }

    @Test
    void enqueueGivesNewIdsInOrderAndAnExistingJobIdItsJobWithoutANewRow() {
        Enqueued first = write(writes -> writes.enqueue(QUEUE, List.of(job("a", "job-1"), job("b", null)), 3, NOW,
                0));
        Enqueued again = write(writes -> writes.enqueue(QUEUE, List.of(job("changed", "job-1")), 3, NOW, 0));

        assertThat(first.ids()).hasSize(2);
        assertThat(first.ids().get(1)).isGreaterThan(first.ids().get(0));
        assertThat(first.newRows()).isEqualTo(2);
        assertThat(again.ids()).containsExactly(first.ids().get(0));
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(2, 0, 0, 0));
    }

    @Test
    void enqueueOverTheLimitWritesNothingAndSaysWhetherItCouldEverFit() {
        write(writes -> writes.enqueue(QUEUE, List.of(job("a", null)), 3, NOW, 0));

        Enqueued full = write(writes -> writes.enqueue(QUEUE, List.of(job("b", null)), 3, NOW, 1));
        Enqueued never = write(writes -> writes.enqueue(QUEUE, List.of(job("c", null), job("d", null)), 3, NOW, 1));

        assertThat(full.ids()).isNull();
        assertThat(full.impossible()).isFalse();
        assertThat(never.ids()).isNull();
        assertThat(never.impossible()).isTrue();
        assertThat(store.stats(QUEUE).ready()).isEqualTo(1);
    }

    @Test
    void claimLeasesInOrderWithAFreshReceiptAndCountsTheAttempt() {
        List<Long> ids = enqueue(3);

        ClaimBatch claimed = claim(2, false);

        assertThat(claimed.rows()).extracting(ClaimedRow::id).containsExactly(ids.get(0), ids.get(1));
        assertThat(claimed.rows()).extracting(ClaimedRow::attempts).containsOnly(1);
        assertThat(claimed.rows()).extracting(ClaimedRow::leaseUntil).containsOnly(NOW + LEASE);
        assertThat(claimed.rows().get(0).receipt()).isNotEqualTo(claimed.rows().get(1).receipt());
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(1, 2, 0, 0));
    }

    @Test
    void settleIsFencedByTheReceipt() {
        enqueue(2);
        List<ClaimedRow> rows = claim(2, false).rows();

        FencedResults results = write(writes -> writes.settle(List.of(
                Settlement.ack(QUEUE, rows.get(0).id(), rows.get(0).receipt(), NOW + 1),
                Settlement.ack(QUEUE, rows.get(1).id(), "not-the-receipt", NOW + 1)), List.of()));

        assertThat(results.outcomes()).containsExactly(JobOutcome.ACKED, JobOutcome.DISCARDED);
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(0, 1, 1, 0));
    }

    @Test
    void aRetryOnTheLastAttemptDeadLettersWithItsReasonAndRetryFailedMakesItReadyAgain() {
        long id = write(writes -> writes.enqueue(QUEUE, List.of(job("a", null)), 1, NOW, 0)).ids().get(0);
        ClaimedRow row = claim(1, false).rows().get(0);

        FencedResults results = write(writes -> writes.settle(List.of(Settlement.retry(QUEUE, id, row.receipt(),
                NOW + 1, null, "boom", FailureReason.RETRIES_EXHAUSTED)), List.of()));
        DeadLetterRetry retried = write(writes -> writes.retryFailed(QUEUE, id, NOW + 2, 0));
        DeadLetterRetry unknown = write(writes -> writes.retryFailed(QUEUE, id + 100, NOW + 2, 0));

        assertThat(results.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED);
        assertThat(retried).isEqualTo(DeadLetterRetry.RETRIED);
        assertThat(unknown).isEqualTo(DeadLetterRetry.NOT_A_DEAD_LETTER);
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void anExpiredLeaseIsReclaimedAndARenewalKeepsALeaseFromIt() {
        enqueue(2);
        List<ClaimedRow> rows = claim(2, false).rows();
        write(writes -> writes.settle(List.of(), List.of(new Renewal(QUEUE, rows.get(1).id(), rows.get(1).receipt(),
                NOW + 1, NOW + 10 * LEASE))));

        List<ExpiredLease> expired = write(writes -> writes.reclaimExpired(QUEUE, NOW + LEASE + 1));

        assertThat(expired).extracting(ExpiredLease::id).containsExactly(rows.get(0).id());
        assertThat(expired.get(0).deadLettered()).isFalse();
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(1, 1, 0, 0));
    }

    @Test
    void purgeDeletesFinishedRowsOlderThanTheCutoffAndDeadLettersOnlyWhenAsked() {
        enqueue(2);
        List<ClaimedRow> rows = claim(2, false).rows();
        write(writes -> writes.settle(List.of(Settlement.ack(QUEUE, rows.get(0).id(), rows.get(0).receipt(), NOW),
                Settlement.deadLetter(QUEUE, rows.get(1).id(), rows.get(1).receipt(), NOW, "bad",
                        FailureReason.EXPLICIT_PERMANENT_FAILURE, null)), List.of()));

        int kept = write(writes -> writes.purge(QUEUE, NOW - 1, true));
        int acked = write(writes -> writes.purge(QUEUE, NOW + 1, false));
        int failed = write(writes -> writes.purge(QUEUE, NOW + 1, true));

        assertThat(List.of(kept, acked, failed)).containsExactly(0, 1, 1);
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void aTurnIsOneHoldersUntilItEndsOrIsFinishedAndRecordsItsLastRun() {
        String turn = Turns.retention(QUEUE);

        assertThat(this.<Boolean>write(writes -> writes.takeTurn(turn, "a", NOW, NOW + 100))).isTrue();
        assertThat(this.<Boolean>write(writes -> writes.takeTurn(turn, "b", NOW + 50, NOW + 150))).as("while a has it").isFalse();
        assertThat(this.<Boolean>write(writes -> writes.takeTurn(turn, "a", NOW + 50, NOW + 150))).as("a again").isTrue();
        assertThat(this.<Boolean>write(writes -> writes.takeTurn(turn, "b", NOW + 150, NOW + 250))).as("once it ended").isTrue();
        write(writes -> {
            writes.finishTurn(turn, "a", NOW + 160, 7);
            return null;
        });
        assertThat(this.<Boolean>write(writes -> writes.takeTurn(turn, "a", NOW + 170, NOW + 270))).as("b's, untouched by a")
                .isFalse();
        write(writes -> {
            writes.finishTurn(turn, "b", NOW + 180, 3);
            return null;
        });
        assertThat(this.<Boolean>write(writes -> writes.takeTurn(turn, "a", NOW + 190, NOW + 290))).as("once b finished").isTrue();
    }

    @Test
    void deleteFinishedTakesABoundedBatchOfOneStateChangedBeforeTheCutoffAndNeverAPendingRow() {
        enqueue(5);
        List<ClaimedRow> rows = claim(4, false).rows();
        write(writes -> writes.settle(List.of(Settlement.ack(QUEUE, rows.get(0).id(), rows.get(0).receipt(), NOW),
                Settlement.ack(QUEUE, rows.get(1).id(), rows.get(1).receipt(), NOW),
                Settlement.ack(QUEUE, rows.get(2).id(), rows.get(2).receipt(), NOW),
                Settlement.deadLetter(QUEUE, rows.get(3).id(), rows.get(3).receipt(), NOW, "bad",
                        FailureReason.EXPLICIT_PERMANENT_FAILURE, null)), List.of()));

        int none = write(writes -> writes.deleteFinished(QUEUE, RowStatus.ACKED, NOW, 10));
        int two = write(writes -> writes.deleteFinished(QUEUE, RowStatus.ACKED, NOW + 1, 2));
        int last = write(writes -> writes.deleteFinished(QUEUE, RowStatus.ACKED, NOW + 1, 2));
        int failed = write(writes -> writes.deleteFinished(QUEUE, RowStatus.FAILED, NOW + 1, 2));

        assertThat(List.of(none, two, last, failed)).containsExactly(0, 2, 1, 1);
        assertThat(store.stats(QUEUE)).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void aBusFanOutDeduplicatesByEventIdAndCommitsWithTheQueueTransitionsOfItsTransaction() {
        Delivery delivery = new Delivery("__bus__:default:mailer", bytes("{}"), "event-1", 3, null, null, Map.of());
        write(writes -> {
            writes.bus().createBusTables();
            return null;
        });

        Delivered first = write(writes -> writes.bus().deliver(List.of(delivery), NOW, 0));
        Delivered again = write(writes -> writes.bus().deliver(List.of(delivery), NOW, 0));

        assertThat(first.inserted()).containsExactly(true);
        assertThat(again.inserted()).containsExactly(false);
        assertThat(again.ids()).isEqualTo(first.ids());
        assertThat(store.stats("__bus__:default:mailer").ready()).isEqualTo(1);
    }

    @Test
    void aCheckpointMovesOnlyFromWhatTheCallerRead() {
        write(writes -> {
            writes.bus().createBusTables();
            return null;
        });

        StoredCheckpoint created = write(writes -> writes.bus().advanceCheckpoint(
                new CheckpointAdvance("default", "users", null, "1", "f", 1, NOW)));
        StoredCheckpoint stale = write(writes -> writes.bus().advanceCheckpoint(
                new CheckpointAdvance("default", "users", null, "2", "f", 1, NOW)));
        StoredCheckpoint moved = write(writes -> writes.bus().advanceCheckpoint(
                new CheckpointAdvance("default", "users", created, "2", "f", 1, NOW)));

        assertThat(created.version()).isEqualTo(1);
        assertThat(stale).isNull();
        assertThat(moved.cursor()).isEqualTo("2");
        assertThat(moved.version()).isEqualTo(2);
        boolean deleted = write(writes -> writes.bus().deleteCheckpoint("default", "users"));
        StoredCheckpoint gone = write(writes -> writes.bus().checkpoint("default", "users"));
        assertThat(deleted).isTrue();
        assertThat(gone).isNull();
    }

    private List<Long> enqueue(int count) {
        List<NewJob> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(job("job " + i, null));
        }
        return write(writes -> writes.enqueue(QUEUE, jobs, 3, NOW, 0)).ids();
    }

    private ClaimBatch claim(int limit, boolean lookForExpired) {
        return write(writes -> writes.claim(new ClaimRequest(QUEUE, NOW, NOW + LEASE, limit, lookForExpired, 0)));
    }

    private <R> R write(StoreWork<R> work) {
        return store.write(WriteOptions.standard("test", DurabilityMode.RELAXED), () -> { }, work);
    }

    private static NewJob job(String payload, String jobId) {
        return new NewJob(bytes(payload), jobId);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
