package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.storage.RawSqlite;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One {@code settle} transition of many deliveries: each settlement and renewal keeps its own fence (queue, still
 * leased, same receipt, lease ending after its own time), its own values and its own result, however many share the
 * transaction and whatever mix of kinds and queues they are.
 */
class BatchedSettlementTest extends StoreTestBase {

    private static final long NOW = 1_000_000L;
    private static final long LEASE = 60_000L;

    @Test
    void aThousandAcknowledgementsEachMatchTheirOwnFence() throws SQLException {
        List<ClaimedRow> rows = claim("q", 1000, 3);
        List<Settlement> acks = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ClaimedRow row = rows.get(i);
            String receipt = i % 97 == 5 ? "not-" + row.receipt() : row.receipt();
            long now = i % 101 == 7 ? row.leaseUntil() : NOW + i;
            acks.add(Settlement.ack("q", row.id(), receipt, now));
        }

        FencedResults results = settle(acks, List.of());

        for (int i = 0; i < rows.size(); i++) {
            boolean fencedOut = i % 97 == 5 || i % 101 == 7;
            Map<String, Object> stored = RawSqlite.message(store.file(), rows.get(i).id());
            assertThat(results.outcomes().get(i)).as("job %d", i)
                    .isEqualTo(fencedOut ? JobOutcome.DISCARDED : JobOutcome.ACKED);
            assertThat(stored.get("status")).as("job %d", i).isEqualTo(fencedOut ? 1L : 2L);
            if (!fencedOut) {
                assertThat(stored).containsEntry("receipt", null).containsEntry("lease_until", null)
                        .containsEntry("updated_at", NOW + i);
            }
        }
    }

    @Test
    void retriesKeepTheirOwnDueTimeAndTheLastAttemptBecomesADeadLetter() throws SQLException {
        List<ClaimedRow> first = claim("q", 2, 1);
        List<ClaimedRow> second = claim("q", 2, 3);

        FencedResults results = settle(List.of(
                Settlement.retry("q", first.get(0).id(), first.get(0).receipt(), NOW + 1, NOW + 500, "boom 1",
                        FailureReason.RETRIES_EXHAUSTED),
                Settlement.retry("q", second.get(0).id(), second.get(0).receipt(), NOW + 2, NOW + 700, "boom 2",
                        FailureReason.RETRIES_EXHAUSTED),
                Settlement.retry("q", second.get(1).id(), second.get(1).receipt(), NOW + 3, null, "boom 3",
                        FailureReason.HANDLER_TIMEOUT),
                Settlement.retry("q", first.get(1).id(), "stale", NOW + 4, NOW + 900, "boom 4",
                        FailureReason.RETRIES_EXHAUSTED)), List.of());

        assertThat(results.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED, JobOutcome.RETRIED,
                JobOutcome.RETRIED, JobOutcome.DISCARDED);
        assertThat(RawSqlite.message(store.file(), first.get(0).id()))
                .containsEntry("status", 3L).containsEntry("available_at", NOW + 1)
                .containsEntry("failure_reason", "retries_exhausted").containsEntry("last_error", "boom 1")
                .containsEntry("receipt", null).containsEntry("lease_until", null).containsEntry("updated_at", NOW + 1);
        assertThat(RawSqlite.message(store.file(), second.get(0).id()))
                .containsEntry("status", 0L).containsEntry("available_at", NOW + 700)
                .containsEntry("failure_reason", null).containsEntry("last_error", "boom 2")
                .containsEntry("receipt", null).containsEntry("lease_until", null).containsEntry("updated_at", NOW + 2);
        assertThat(RawSqlite.message(store.file(), second.get(1).id()))
                .containsEntry("status", 0L).containsEntry("available_at", NOW)
                .containsEntry("failure_reason", null).containsEntry("last_error", "boom 3")
                .containsEntry("updated_at", NOW + 3);
        assertThat(RawSqlite.message(store.file(), first.get(1).id()))
                .containsEntry("status", 1L).containsEntry("last_error", null);
    }

    @Test
    void deadLettersKeepEachTheirOwnReasonErrorAndCategory() throws SQLException {
        List<ClaimedRow> rows = claim("q", 3, 3);

        FencedResults results = settle(List.of(
                Settlement.deadLetter("q", rows.get(0).id(), rows.get(0).receipt(), NOW + 1, "bad input",
                        FailureReason.PERMANENT_HANDLER_ERROR, "validation"),
                Settlement.deadLetter("q", rows.get(1).id(), rows.get(1).receipt(), NOW + 2, null,
                        FailureReason.INVALID_PAYLOAD, null),
                Settlement.deadLetter("q", rows.get(2).id(), rows.get(2).receipt(), rows.get(2).leaseUntil(), "late",
                        FailureReason.HANDLER_TIMEOUT, null)), List.of());

        assertThat(results.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED, JobOutcome.DEAD_LETTERED,
                JobOutcome.DISCARDED);
        assertThat(RawSqlite.message(store.file(), rows.get(0).id()))
                .containsEntry("status", 3L).containsEntry("failure_reason", "permanent_handler_error")
                .containsEntry("last_error", "bad input").containsEntry("failure_category", "validation")
                .containsEntry("receipt", null).containsEntry("lease_until", null).containsEntry("updated_at", NOW + 1);
        assertThat(RawSqlite.message(store.file(), rows.get(1).id()))
                .containsEntry("status", 3L).containsEntry("failure_reason", "invalid_payload")
                .containsEntry("last_error", null).containsEntry("failure_category", null);
        assertThat(RawSqlite.message(store.file(), rows.get(2).id())).containsEntry("status", 1L);
    }

    @Test
    void releasesHandBackTheClaimWithoutCountingIt() throws SQLException {
        List<ClaimedRow> rows = claim("q", 2, 3);

        FencedResults results = settle(List.of(
                Settlement.release("q", rows.get(0).id(), rows.get(0).receipt(), NOW + 1),
                Settlement.release("other", rows.get(1).id(), rows.get(1).receipt(), NOW + 2)), List.of());

        assertThat(results.outcomes()).containsExactly(JobOutcome.RETRIED, JobOutcome.DISCARDED);
        assertThat(RawSqlite.message(store.file(), rows.get(0).id()))
                .containsEntry("status", 0L).containsEntry("attempts", 0L).containsEntry("available_at", NOW)
                .containsEntry("receipt", null).containsEntry("lease_until", null).containsEntry("updated_at", NOW + 1);
        assertThat(RawSqlite.message(store.file(), rows.get(1).id()))
                .containsEntry("status", 1L).containsEntry("attempts", 1L);
    }

    @Test
    void renewalsExtendEachLeaseUnderItsOwnFence() throws SQLException {
        List<ClaimedRow> rows = claim("q", 600, 3);
        List<Renewal> renewals = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ClaimedRow row = rows.get(i);
            renewals.add(new Renewal("q", row.id(), i == 300 ? "stale" : row.receipt(), NOW + i, NOW + LEASE + i));
        }

        FencedResults results = settle(List.of(), renewals);

        for (int i = 0; i < rows.size(); i++) {
            assertThat(results.renewed().get(i)).as("renewal %d", i).isEqualTo(i != 300);
            assertThat(RawSqlite.message(store.file(), rows.get(i).id()))
                    .containsEntry("lease_until", i == 300 ? NOW + LEASE : NOW + LEASE + i)
                    .containsEntry("updated_at", i == 300 ? NOW : NOW + i);
        }
    }

    @Test
    void kindsAndQueuesMixInOneTransactionEachWithItsOwnResult() throws SQLException {
        List<ClaimedRow> a = claim("a", 3, 3);
        List<ClaimedRow> b = claim("b", 3, 3);

        FencedResults results = settle(List.of(
                Settlement.ack("a", a.get(0).id(), a.get(0).receipt(), NOW),
                Settlement.retry("b", b.get(0).id(), b.get(0).receipt(), NOW, NOW + 10, "again",
                        FailureReason.RETRIES_EXHAUSTED),
                Settlement.ack("b", a.get(1).id(), a.get(1).receipt(), NOW),
                Settlement.deadLetter("a", a.get(2).id(), a.get(2).receipt(), NOW, "no",
                        FailureReason.REJECTED, null),
                Settlement.release("b", b.get(1).id(), b.get(1).receipt(), NOW),
                Settlement.ack("b", b.get(2).id(), b.get(2).receipt(), NOW)),
                List.of(new Renewal("a", a.get(1).id(), a.get(1).receipt(), NOW, NOW + 2 * LEASE)));

        assertThat(results.outcomes()).containsExactly(JobOutcome.ACKED, JobOutcome.RETRIED, JobOutcome.DISCARDED,
                JobOutcome.DEAD_LETTERED, JobOutcome.RETRIED, JobOutcome.ACKED);
        assertThat(results.renewed()).containsExactly(true);
        assertThat(RawSqlite.message(store.file(), a.get(1).id()))
                .containsEntry("status", 1L).containsEntry("lease_until", NOW + 2 * LEASE);
    }

    @Test
    void aDeliverySettledTwiceInOneTransactionIsSettledOnceInTheOrderTheTransactionRunsThem() throws SQLException {
        List<ClaimedRow> rows = claim("q", 3, 3);
        ClaimedRow twiceAcked = rows.get(0);
        ClaimedRow ackedAndRetried = rows.get(1);
        ClaimedRow ackedAndRenewed = rows.get(2);

        FencedResults results = settle(List.of(
                Settlement.ack("q", twiceAcked.id(), twiceAcked.receipt(), NOW),
                Settlement.ack("q", ackedAndRetried.id(), ackedAndRetried.receipt(), NOW),
                Settlement.ack("q", twiceAcked.id(), twiceAcked.receipt(), NOW),
                Settlement.retry("q", ackedAndRetried.id(), ackedAndRetried.receipt(), NOW, null, "again",
                        FailureReason.RETRIES_EXHAUSTED),
                Settlement.ack("q", ackedAndRenewed.id(), ackedAndRenewed.receipt(), NOW)),
                List.of(new Renewal("q", ackedAndRenewed.id(), ackedAndRenewed.receipt(), NOW, NOW + 2 * LEASE)));

        // retries, dead letters and releases run before acknowledgements, and renewals last
        assertThat(results.outcomes()).containsExactly(JobOutcome.ACKED, JobOutcome.DISCARDED, JobOutcome.DISCARDED,
                JobOutcome.RETRIED, JobOutcome.ACKED);
        assertThat(results.renewed()).containsExactly(false);
        assertThat(RawSqlite.message(store.file(), twiceAcked.id())).containsEntry("status", 2L);
        assertThat(RawSqlite.message(store.file(), ackedAndRetried.id())).containsEntry("status", 0L);
        assertThat(RawSqlite.message(store.file(), ackedAndRenewed.id()))
                .containsEntry("status", 2L).containsEntry("lease_until", null);
    }

    private FencedResults settle(List<Settlement> settlements, List<Renewal> renewals) {
        return store.write(WriteOptions.standard("settle", DurabilityMode.RELAXED), () -> { },
                writes -> writes.settle(settlements, renewals));
    }

    /** Enqueues and claims {@code count} jobs of {@code queue}, each now on its first attempt of {@code maxAttempts}. */
    private List<ClaimedRow> claim(String queue, int count, int maxAttempts) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(new NewJob(("\"job-" + i + "\"").getBytes(StandardCharsets.UTF_8), null));
        }
        List<ClaimedRow> claimed = store.write(WriteOptions.standard("claim", DurabilityMode.RELAXED), () -> { },
                writes -> {
                    writes.enqueue(queue, jobs, maxAttempts, NOW, 0);
                    return writes.claim(new ClaimRequest(queue, NOW, NOW + LEASE, count, false, 0)).rows();
                });
        assertThat(claimed).hasSize(count);
        return claimed;
    }
}
