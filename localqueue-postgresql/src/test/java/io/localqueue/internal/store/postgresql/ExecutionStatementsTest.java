package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailureReason;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.ExecutionBatch;
import io.localqueue.internal.store.ExecutionDeletion;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.SourceClaim;
import io.localqueue.internal.store.StoredExecution;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Event-bus executions on a real PostgreSQL server: one per source, its fenced source lease, members, completion, and
 * deletion in steps.
 */
class ExecutionStatementsTest extends LayoutTestBase {

    private static final String QUEUE = "__bus__:default:users";

    @Test
    void anExecutionRunsItsSourceUnderALeaseAndCompletesOnceItsMembersAreSettled() throws SQLException {
        StoredExecution opened = open("x1");
        String id = opened.executionId();

        assertThat(claim(id, "r1", 100, 1_000)).isEqualTo(SourceClaim.TAKEN);
        assertThat(claim(id, "r2", 200, 2_000)).as("another holder before expiry").isEqualTo(SourceClaim.HELD);
        assertThat(holds(id, "r1", 500)).isTrue();
        assertThat(holds(id, "r2", 500)).isFalse();

        List<Long> deliveries = Transactions.run(c -> FanOutStatements.deliver(c, schema, List.of(
                delivery("a"), delivery("b")), 300, 0)).ids();
        Transactions.run(c -> {
            ExecutionStatements.recordBatch(c, schema, new ExecutionBatch(id, "gen-1", deliveries, 2, 2, 0, 2, 0),
                    300);
            return null;
        });
        assertThat(completeSource(id, "r2", 400)).isFalse();
        assertThat(completeSource(id, "r1", 400)).isTrue();
        assertThat(claim(id, "r3", 5_000, 6_000)).isEqualTo(SourceClaim.SOURCE_DONE);
        assertThat(pending(id)).isTrue();
        StoredExecution unsettled = Transactions.run(c -> ExecutionStatements.settle(c, schema, id, 500));
        assertThat(unsettled.completedAt()).isNull();
        assertThat(unsettled.ready()).isEqualTo(2);
        assertThat(unsettled.itemsCommitted()).isEqualTo(2);
        assertThat(unsettled.checkpointGeneration()).isEqualTo("gen-1");

        List<ClaimedRow> rows = Transactions.run(c -> ClaimStatements.claim(c, schema, QUEUE, 600, 60_000, 10,
                false, 0)).rows();
        List<Settlement> acks = new ArrayList<>();
        for (ClaimedRow row : rows) {
            acks.add(Settlement.ack(QUEUE, row.id(), row.receipt(), 700));
        }
        Transactions.run(c -> LeaseStatements.settle(c, schema, acks, List.of()));

        assertThat(pending(id)).isFalse();
        StoredExecution done = Transactions.run(c -> ExecutionStatements.settle(c, schema, id, 800));
        assertThat(done.completedAt()).isEqualTo(800);
        assertThat(done.acknowledged()).isEqualTo(2);
        assertThat(query("SELECT source_completed::text FROM " + schema + ".event_bus_executions"))
                .containsExactly("true");
        StoredExecution bound = Transactions.run(c -> ExecutionStatements.open(c, schema, "default", "users",
                "users:1", "file-v1", "gen-1", "x9", 900));
        assertThat(bound.executionId()).as("found by its checkpoint's generation").isEqualTo(id);
    }

    @Test
    void aReplayDuringADeletionStepWaitsForItAndThenReopensNoExecution() throws Exception {
        String id = open("x1").executionId();
        claim(id, "r1", 100, 60_000);
        List<Long> deliveries = Transactions.run(c -> FanOutStatements.deliver(c, schema, List.of(
                delivery("a"), delivery("b")), 200, 0)).ids();
        Transactions.run(c -> {
            ExecutionStatements.recordBatch(c, schema, new ExecutionBatch(id, "gen-1", deliveries, 2, 2, 0, 2, 0),
                    200);
            return null;
        });
        completeSource(id, "r1", 300);
        List<ClaimedRow> rows = Transactions.run(c -> ClaimStatements.claim(c, schema, QUEUE, 400, 60_000, 10,
                false, 0)).rows();
        Transactions.run(c -> LeaseStatements.settle(c, schema, List.of(
                Settlement.ack(QUEUE, rows.get(0).id(), rows.get(0).receipt(), 500),
                Settlement.deadLetter(QUEUE, rows.get(1).id(), rows.get(1).receipt(), 500, "no",
                        FailureReason.REJECTED, null)), List.of()));
        long deadLetter = rows.get(1).id();

        ExecutorService replays = Executors.newSingleThreadExecutor();
        try (Connection deleting = PostgresServer.connect()) {
            deleting.setAutoCommit(false);
            assertThat(ExecutionStatements.delete(deleting, schema, "default", id, Long.MAX_VALUE, 600, 1).step())
                    .as("finds it complete and releases its first delivery").isEqualTo(ExecutionDeletion.Step.MORE);
            Future<DeadLetterRetry> replay = replays.submit(() -> Transactions.run(c ->
                    MaintenanceStatements.retryFailed(c, schema, QUEUE, deadLetter, 700, 0)));
            Thread.sleep(300);
            assertThat(replay).as("waits for the deletion step's lock").isNotDone();
            assertThat(ExecutionStatements.delete(deleting, schema, "default", id, Long.MAX_VALUE, 600, 5))
                    .isEqualTo(new ExecutionDeletion(ExecutionDeletion.Step.DELETED, 1, null));
            deleting.commit();

            assertThat(replay.get(20, TimeUnit.SECONDS)).isEqualTo(DeadLetterRetry.RETRIED);
        } finally {
            replays.shutdownNow();
        }
        assertThat(query("SELECT count(*)::text FROM " + schema + ".event_bus_execution_deliveries"))
                .containsExactly("0");
        assertThat(query("SELECT count(*)::text FROM " + schema + ".event_bus_execution_runtime"))
                .containsExactly("0");
        assertThat(Transactions.run(c -> ExecutionStatements.delete(c, schema, "default", id, Long.MAX_VALUE, 800,
                5)).step()).isEqualTo(ExecutionDeletion.Step.UNKNOWN);
    }

    @Test
    void hostsOpeningTheSameExecutionAtOnceConvergeOnOne() throws Exception {
        int hosts = 6;
        CountDownLatch ready = new CountDownLatch(hosts);
        ExecutorService pool = Executors.newFixedThreadPool(hosts);
        Set<String> ids = new HashSet<>();
        try {
            List<Future<String>> opened = new ArrayList<>();
            for (int host = 0; host < hosts; host++) {
                String newId = "x" + host;
                opened.add(pool.submit(() -> {
                    try (Connection connection = PostgresServer.connect()) {
                        ready.countDown();
                        ready.await(20, TimeUnit.SECONDS);
                        return Transactions.run(connection, c -> ExecutionStatements.open(c, schema, "default",
                                "users", "users:1", "file-v1", null, newId, 100)).executionId();
                    }
                }));
            }
            for (Future<String> host : opened) {
                ids.add(host.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(ids).hasSize(1);
        assertThat(query("SELECT count(*)::text FROM " + schema + ".event_bus_executions")).containsExactly("1");
    }

    private StoredExecution open(String newId) throws SQLException {
        return Transactions.run(c -> ExecutionStatements.open(c, schema, "default", "users", "users:1", "file-v1",
                null, newId, 50));
    }

    private boolean holds(String id, String receipt, long now) throws SQLException {
        return Transactions.run(c -> ExecutionStatements.holdsSource(c, schema, id, receipt, now));
    }

    private boolean completeSource(String id, String receipt, long now) throws SQLException {
        return Transactions.run(c -> ExecutionStatements.completeSource(c, schema, id, receipt, now));
    }

    private boolean pending(String id) throws SQLException {
        return Transactions.run(c -> ExecutionStatements.pending(c, schema, id));
    }

    private SourceClaim claim(String id, String receipt, long now, long leaseUntil) throws SQLException {
        return Transactions.run(c -> ExecutionStatements.claimSource(c, schema, id, receipt, now, leaseUntil));
    }

    private static Delivery delivery(String eventId) {
        return new Delivery(QUEUE, ("{\"event_id\": \"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8), eventId,
                4, null, null);
    }
}
