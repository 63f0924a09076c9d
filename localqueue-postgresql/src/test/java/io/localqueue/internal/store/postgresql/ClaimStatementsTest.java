package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.NewJob;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Claims on a real PostgreSQL server: order, leases, budgets, reclaims, and consumers that never share a row. */
class ClaimStatementsTest extends LayoutTestBase {

    @Test
    void dueRowsAreLeasedInDueOrderThenIdWithTheirHeadersAndFreshReceipts() throws SQLException {
        List<Long> ids = put(List.of(new NewJob(bytes("a"), null, Map.of("trace", "t-a")),
                new NewJob(bytes("b"), null), new NewJob(bytes("c"), null)), 4, 100);
        execute("UPDATE " + schema + ".messages SET available_at = 50 WHERE id = " + ids.get(2));
        execute("UPDATE " + schema + ".messages SET available_at = 500 WHERE id = " + ids.get(1));

        ClaimBatch batch = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 200,
                30_200, 10, true, 0));

        assertThat(batch.rows()).extracting(ClaimedRow::id).containsExactly(ids.get(2), ids.get(0));
        ClaimedRow first = batch.rows().get(1);
        assertThat(first.attempts()).isEqualTo(1);
        assertThat(first.leaseUntil()).isEqualTo(30_200);
        assertThat(first.headers()).containsEntry("trace", "t-a");
        assertThat(new String(first.payload(), StandardCharsets.UTF_8)).isEqualTo("a");
        assertThat(batch.rows().get(0).receipt()).isNotEqualTo(first.receipt()).endsWith(ids.get(2).toString());
        ClaimProbe probe = Transactions.run(connection -> ClaimStatements.probe(connection, schema, "emails"));
        assertThat(probe.earliestDue()).isEqualTo(500);
        assertThat(probe.earliestLeaseEnd()).isEqualTo(30_200);
    }

    @Test
    void expiredLeasesComeBackReadyOrAsDeadLettersOnTheirLastDelivery() throws SQLException {
        List<Long> ids = put(List.of(new NewJob(bytes("a"), null), new NewJob(bytes("b"), null)), 2, 0);
        Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 0, 1_000, 10, true, 0));
        execute("UPDATE " + schema + ".messages SET attempts = 2, last_error = 'timeout' WHERE id = " + ids.get(1));

        ClaimBatch batch = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 1_000,
                2_000, 10, true, 0));

        assertThat(batch.reclaimed()).extracting(ExpiredLease::id).containsExactly(ids.get(0), ids.get(1));
        assertThat(batch.reclaimed().get(0).deadLettered()).isFalse();
        ExpiredLease last = batch.reclaimed().get(1);
        assertThat(last.deadLettered()).isTrue();
        assertThat(last.lastError()).isEqualTo("lease expired on delivery 2 of 2: the job was not settled before its "
                + "lease ran out; before that: timeout");
        assertThat(batch.rows()).extracting(ClaimedRow::id).containsExactly(ids.get(0));
        assertThat(batch.rows().get(0).attempts()).isEqualTo(2);
    }

    @Test
    void aClaimOfOneRowTakesTheFirstInLineOnlyOnceTheEndedLeasesAreBackUnlessToldNoneEnded() throws SQLException {
        List<Long> ids = put(List.of(new NewJob(bytes("a"), null), new NewJob(bytes("b"), null)), 4, 0);
        Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 0, 1_000, 1, true, 0));

        ClaimBatch looked = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 1_000,
                2_000, 1, true, 0));
        ClaimBatch notLooked = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails",
                3_000, 4_000, 1, false, 0));

        assertThat(looked.reclaimed()).extracting(ExpiredLease::id).containsExactly(ids.get(0));
        assertThat(looked.rows()).extracting(ClaimedRow::id).as("back in its place, first in line")
                .containsExactly(ids.get(0));
        assertThat(notLooked.reclaimed()).isEmpty();
        assertThat(notLooked.rows()).extracting(ClaimedRow::id).containsExactly(ids.get(1));
        assertThat(query("SELECT status || ' ' || lease_until FROM " + schema + ".messages WHERE id = " + ids.get(0)))
                .as("its ended lease left for a claim that looks").containsExactly("1 2000");
    }

    @Test
    void bothClaimsOfOneRowTakeTheQueueInClaimOrderPassingRowsNotYetDueAtAMoreUrgentPriority() throws SQLException {
        List<NewJob> jobs = new ArrayList<>();
        long[][] priorityAndDue = {{0, 10}, {-1, 900}, {1, 5}, {-1, 20}, {0, 10}, {-1, 30}, {2, 0}, {-1, 800}};
        for (long[] job : priorityAndDue) {
            jobs.add(new NewJob(bytes("p" + job[0]), null, Map.of(), job[1], (int) job[0], null));
        }
        List<Long> ids = put(jobs, 4, 0);
        List<Long> inClaimOrder = List.of(ids.get(3), ids.get(5), ids.get(0), ids.get(4), ids.get(2), ids.get(6));

        for (ClaimStatements.Lease lease : List.of(ClaimStatements.CLAIM_ONE, ClaimStatements.CLAIM_FIRST)) {
            List<ClaimedRow> taken = new ArrayList<>();
            for (int claim = 0; claim < inClaimOrder.size() + 1; claim++) {
                Transactions.run(connection -> ClaimStatements.leaseInOrder(new ClaimStatements.Claim(connection,
                        schema, "emails", 100, 60_000, 0, "r-"), lease, 1, true, taken));
            }
            execute("UPDATE " + schema + ".messages SET status = 0, receipt = NULL, lease_until = NULL");

            assertThat(taken).as(lease.levelled() ? "the priority walk" : "the ordered scan")
                    .extracting(ClaimedRow::id).containsExactlyElementsOf(inClaimOrder);
        }
    }

    @Test
    void bothClaimsOfOneRowTakeNothingOfAQueueWithControlsOrOneWithAnEndedLeaseWhenToldToLook() throws SQLException {
        put(List.of(new NewJob(bytes("a"), null), new NewJob(bytes("b"), null), new NewJob(bytes("c"), null)), 4, 0);
        Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 0, 50, 1, false, 0));

        for (ClaimStatements.Lease lease : List.of(ClaimStatements.CLAIM_ONE, ClaimStatements.CLAIM_FIRST)) {
            List<ClaimedRow> rows = new ArrayList<>();
            int whileEnded = Transactions.run(connection -> ClaimStatements.leaseInOrder(new ClaimStatements.Claim(
                    connection, schema, "emails", 100, 60_000, 0, "r-"), lease, 1, true, rows));
            execute("INSERT INTO " + schema + ".queue_controls (queue, paused_at) VALUES ('emails', 1)");
            int whilePaused = Transactions.run(connection -> ClaimStatements.leaseInOrder(new ClaimStatements.Claim(
                    connection, schema, "emails", 100, 60_000, 0, "r-"), lease, 1, false, rows));
            execute("DELETE FROM " + schema + ".queue_controls");

            assertThat(whileEnded).as("while a lease has ended").isZero();
            assertThat(whilePaused).as("while paused").isZero();
            assertThat(rows).isEmpty();
        }
    }

    @Test
    void theClaimOfOneRowIsTheOrderedScanOnAServerWhoseIndexScansSkip() throws SQLException {
        try (Connection connection = PostgresServer.connect()) {
            int major = connection.getMetaData().getDatabaseMajorVersion();

            assertThat(ClaimStatements.oneRow(connection)).as("on PostgreSQL " + major)
                    .isSameAs(major >= 18 ? ClaimStatements.CLAIM_FIRST : ClaimStatements.CLAIM_ONE);
        }
    }

    @Test
    void aClaimersBudgetIsWrittenOnEveryRowAndFailsARowThatSpentIt() throws SQLException {
        List<Long> ids = put(List.of(new NewJob(bytes("spent"), null), new NewJob(bytes("fresh"), null)), 9, 0);
        execute("UPDATE " + schema + ".messages SET attempts = 3 WHERE id = " + ids.get(0));

        ClaimBatch batch = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", 0,
                1_000, 10, false, 3));

        assertThat(batch.rows()).extracting(ClaimedRow::id).containsExactly(ids.get(1));
        assertThat(query("SELECT status || ' ' || failure_reason || ' ' || max_attempts || ' ' || attempts FROM "
                + schema + ".messages WHERE id = " + ids.get(0))).containsExactly("3 retries_exhausted 3 3");
        assertThat(query("SELECT max_attempts::text FROM " + schema + ".messages WHERE id = " + ids.get(1)))
                .containsExactly("3");
    }

    @Test
    void consumersOnManyConnectionsClaimEveryJobExactlyOnce() throws Exception {
        int jobs = 2_000;
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            batch.add(new NewJob(bytes("job " + i), null));
        }
        put(batch, 4, 0);
        int consumers = 6;
        CountDownLatch ready = new CountDownLatch(consumers);
        Set<Long> claimed = Collections.synchronizedSet(new HashSet<>());
        List<Long> duplicates = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(consumers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                done.add(pool.submit(() -> {
                    try (Connection connection = PostgresServer.connect()) {
                        ready.countDown();
                        ready.await(20, TimeUnit.SECONDS);
                        while (true) {
                            ClaimBatch taken = Transactions.run(connection, c2 -> ClaimStatements.claim(c2, schema,
                                    "emails", 0, 60_000, 25, false, 0));
                            if (taken.rows().isEmpty()) {
                                return null;
                            }
                            for (ClaimedRow row : taken.rows()) {
                                if (!claimed.add(row.id())) {
                                    duplicates.add(row.id());
                                }
                            }
                        }
                    }
                }));
            }
            for (Future<?> consumer : done) {
                consumer.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(duplicates).isEmpty();
        assertThat(claimed).hasSize(jobs);
    }

    private List<Long> put(List<NewJob> jobs, int maxAttempts, long now) throws SQLException {
        return Transactions.run(connection -> EnqueueStatements.insert(connection, schema, "emails", jobs,
                maxAttempts, now, 0)).ids();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
