package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.Settlement;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Settlements on a real PostgreSQL server, each fenced by the delivery's receipt and lease. */
class LeaseStatementsTest extends LayoutTestBase {

    private static final long NOW = 10_000;
    private static final long LEASE_END = 40_000;

    @Test
    void acknowledgementsOfABatchSettleOnlyTheCurrentDeliveries() throws SQLException {
        List<ClaimedRow> rows = claim(3, 4);
        List<Settlement> acks = List.of(
                Settlement.ack("emails", rows.get(0).id(), rows.get(0).receipt(), NOW + 1),
                Settlement.ack("emails", rows.get(1).id(), "stale-receipt", NOW + 1),
                Settlement.ack("emails", rows.get(2).id(), rows.get(2).receipt(), LEASE_END),
                Settlement.ack("sms", rows.get(0).id(), rows.get(0).receipt(), NOW + 1));

        FencedResults results = settle(acks, List.of());

        assertThat(results.outcomes()).containsExactly(JobOutcome.ACKED, JobOutcome.DISCARDED,
                JobOutcome.DISCARDED, JobOutcome.DISCARDED);
        assertThat(states()).containsExactly("2", "1", "1");
    }

    @Test
    void theGenericPlanOfABatchAcknowledgementFindsItsRowsByTheirIdsNotByOneWalkOfTheLeasesPerRow()
            throws SQLException {
        execute("INSERT INTO " + schema + ".messages (queue, payload, status, attempts, max_attempts, available_at, "
                + "receipt, lease_until, created_at, updated_at) SELECT 'emails', '\\x00', 1, 1, 3, 0, 'r' || g, "
                + LEASE_END + ", 0, 0 FROM generate_series(1, 4000) AS g");
        String numbered = LeaseStatements.ACK_ALL.formatted(schema);
        for (int parameter = 1; numbered.contains("?"); parameter++) {
            numbered = numbered.replaceFirst("\\?", "\\$" + parameter);
        }
        String statement = numbered;

        List<String> plan = Transactions.run(connection -> {
            try (Statement settings = connection.createStatement()) {
                settings.execute("SET LOCAL plan_cache_mode = force_generic_plan");
                settings.execute("PREPARE ack_all AS " + statement);
            }
            return Transactions.strings(connection, "EXPLAIN (COSTS OFF) EXECUTE ack_all('{1,2,3}', "
                    + "'{emails,emails,emails}', '{r1,r2,r3}', '{" + NOW + "," + NOW + "," + NOW + "}', '{1,2,3}')");
        });

        assertThat(plan).as("no index is searched once per acknowledgement with its values")
                .noneMatch(line -> line.contains("Index Cond") && line.contains("a."));
        assertThat(String.join("\n", plan)).contains("id = ANY");
    }

    @Test
    void aRetryKeepsItsPlaceOrWaitsAndEndsAsADeadLetterOnceTheBudgetIsSpent() throws SQLException {
        List<ClaimedRow> rows = claim(2, 1);
        ClaimedRow kept = rows.get(0);
        ClaimedRow last = rows.get(1);
        execute("UPDATE " + schema + ".messages SET max_attempts = 3 WHERE id = " + kept.id());

        FencedResults results = settle(List.of(
                Settlement.retry("emails", kept.id(), kept.receipt(), NOW + 1, null, "busy",
                        FailureReason.RETRIES_EXHAUSTED),
                Settlement.retry("emails", last.id(), last.receipt(), NOW + 1, NOW + 500, "still busy",
                        FailureReason.RETRIES_EXHAUSTED)), List.of());

        assertThat(results.outcomes()).containsExactly(JobOutcome.RETRIED, JobOutcome.DEAD_LETTERED);
        assertThat(query("SELECT status || ' ' || available_at || ' ' || last_error FROM " + schema
                + ".messages WHERE id = " + kept.id())).containsExactly("0 0 busy");
        assertThat(query("SELECT status || ' ' || failure_reason || ' ' || last_error || ' ' || available_at FROM "
                + schema + ".messages WHERE id = " + last.id()))
                .containsExactly("3 retries_exhausted still busy " + (NOW + 1));
    }

    @Test
    void aDeadLetterKeepsItsReasonAndCategoryAndAReleaseGivesTheDeliveryBack() throws SQLException {
        List<ClaimedRow> rows = claim(2, 4);
        ClaimedRow rejected = rows.get(0);
        ClaimedRow handedBack = rows.get(1);

        FencedResults results = settle(List.of(
                Settlement.deadLetter("emails", rejected.id(), rejected.receipt(), NOW + 1, "no such user",
                        FailureReason.REJECTED, "unknown_user"),
                Settlement.release("emails", handedBack.id(), handedBack.receipt(), NOW + 1),
                Settlement.release("emails", handedBack.id(), handedBack.receipt(), NOW + 2)), List.of());

        assertThat(results.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED, JobOutcome.RETRIED,
                JobOutcome.DISCARDED);
        assertThat(query("SELECT failure_reason || ' ' || failure_category || ' ' || last_error FROM " + schema
                + ".messages WHERE id = " + rejected.id())).containsExactly("rejected unknown_user no such user");
        assertThat(query("SELECT status || ' ' || attempts || ' ' || coalesce(receipt, '-') FROM " + schema
                + ".messages WHERE id = " + handedBack.id())).containsExactly("0 0 -");
    }

    @Test
    void renewalsExtendOnlyLeasesStillHeld() throws SQLException {
        List<ClaimedRow> rows = claim(2, 4);

        FencedResults results = settle(List.of(), List.of(
                new Renewal("emails", rows.get(0).id(), rows.get(0).receipt(), NOW + 1, 90_000),
                new Renewal("emails", rows.get(1).id(), "stale-receipt", NOW + 1, 90_000)));

        assertThat(results.renewed()).containsExactly(true, false);
        assertThat(query("SELECT lease_until::text FROM " + schema + ".messages ORDER BY id"))
                .containsExactly("90000", String.valueOf(LEASE_END));
    }

    private List<ClaimedRow> claim(int jobs, int maxAttempts) throws SQLException {
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            batch.add(new NewJob(("job " + i).getBytes(StandardCharsets.UTF_8), null));
        }
        Transactions.run(connection -> EnqueueStatements.insert(connection, schema, "emails", batch, maxAttempts, 0,
                0));
        return Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails", NOW, LEASE_END,
                jobs, false, 0)).rows();
    }

    private FencedResults settle(List<Settlement> settlements, List<Renewal> renewals) throws SQLException {
        return Transactions.run(connection -> LeaseStatements.settle(connection, schema, settlements, renewals));
    }

    private List<String> states() throws SQLException {
        return query("SELECT status::text FROM " + schema + ".messages ORDER BY id");
    }

}
