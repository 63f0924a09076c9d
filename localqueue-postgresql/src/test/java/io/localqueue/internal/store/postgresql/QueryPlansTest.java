package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.JobState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The plans PostgreSQL picks for the hot statements on a table whose statistics are stale, as they are after a
 * bulk load that autovacuum has not analysed yet: each statement must reach its rows through the index of its state,
 * in the index's order, and never by walking every row of the queue. Both the plan of the first executions (with the
 * values bound) and the generic plan a prepared statement moves to are checked.
 */
class QueryPlansTest extends LayoutTestBase {

    /** Rows loaded, as a benchmark or an import loads them; enough for a wrong plan to show. */
    private static final int ROWS = 60_000;

    /** Rows per loading transaction, as {@code putMany} writes them. */
    private static final int BATCH = 1_000;

    /** The due time of the first batch; each later batch is due a millisecond later. */
    private static final long LOADED_AT = 1_000_000;

    @BeforeEach
    void loadAQueueThenDrainPartOfItWithoutAnalysing() throws SQLException {
        for (int batch = 0; batch < ROWS / BATCH; batch++) {
            execute("INSERT INTO " + schema + ".messages (queue, payload, status, attempts, max_attempts, "
                    + "available_at, created_at, updated_at) SELECT 'drain', '\\x00', 0, 0, 4, " + (LOADED_AT + batch)
                    + ", 1, 1 FROM generate_series(1, " + BATCH + ")");
        }
        execute("UPDATE " + schema + ".messages SET status = 2, attempts = 1, updated_at = 2 WHERE id <= " + ROWS / 4);
    }

    @Test
    void theClaimWalksTheClaimOrderIndexWithoutSortingTheQueue() throws SQLException {
        String claim = ClaimStatements.CLAIM.sql().formatted(schema);

        for (String plan : plans(claim, "0", "'r-'", "9000000", "5000000", "'drain'", "'drain'", "'drain'", "5000000",
                "50", "'drain'", "true", "'drain'", "5000000", "50")) {
            assertThat(plan).as("claim plan").contains("messages_claim_order").doesNotContain("Sort")
                    .doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void theClaimOfOneRowKeepsItsGenericPlanOnTheClaimOrderIndex() throws SQLException {
        String claim = ClaimStatements.CLAIM_ONE.sql().formatted(schema);

        for (String plan : plans(claim, "0", "'r-'", "9000000", "5000000", "'drain'", "'drain'", "'drain'", "5000000",
                "'drain'", "true", "'drain'", "5000000")) {
            assertThat(plan).as("one-row claim plan").contains("messages_claim_order").contains("messages_pkey")
                    .doesNotContain("Sort").doesNotContain("Seq Scan on messages").doesNotContain("Hash Join");
        }
    }

    @Test
    void theOrderedClaimOfOneRowSeeksPastRowsNotYetDueAtAMoreUrgentPriority() throws SQLException {
        execute("UPDATE " + schema + ".messages SET priority = -1, available_at = 9000000000 "
                + "WHERE status = 0 AND id % 2 = 0");
        String claim = ClaimStatements.CLAIM_FIRST.sql().formatted(schema);
        String[] values = {"0", "'r-'", "9000000", "5000000", "'drain'", "5000000", "'drain'", "true", "'drain'",
                "5000000"};

        for (String plan : plans(claim, values)) {
            assertThat(plan).as("ordered one-row claim plan").contains("messages_claim_order")
                    .contains("messages_pkey").doesNotContain("Sort").doesNotContain("Seq Scan on messages");
        }
        String run = explainAnalysed(claim, values);
        Matcher searches = Pattern.compile("messages_claim_order[^\\n]*\\n(?:[^\\n]*\\n)*?\\s*Index Searches: (\\d+)")
                .matcher(run);
        assertThat(searches.find()).as("the claim-order scan's searches in %s", run).isTrue();
        assertThat(Integer.parseInt(searches.group(1))).as("index searches past 22,500 rows not yet due")
                .isLessThanOrEqualTo(3);
    }

    @Test
    void aClaimOverMixedPrioritiesAndJobsNotYetDueSeeksEachPriorityWithoutSorting() throws SQLException {
        execute("UPDATE " + schema + ".messages SET priority = (id % 7) - 3, "
                + "available_at = available_at + (id % 2) * 3600000 WHERE status = 0");
        String claim = ClaimStatements.CLAIM.sql().formatted(schema);
        String probe = "SELECT " + ClaimStatements.EARLIEST_DUE.formatted(schema);

        for (String plan : plans(claim, "0", "'r-'", "9000000", "5000000", "'drain'", "'drain'", "'drain'", "5000000",
                "50", "'drain'", "true", "'drain'", "5000000", "50")) {
            assertThat(plan).as("claim plan").contains("messages_claim_order").doesNotContain("Sort")
                    .doesNotContain("Seq Scan on messages");
        }
        for (String plan : plans(probe, "'drain'", "'drain'", "'drain'")) {
            assertThat(plan).as("earliest due plan").contains("messages_claim_order").doesNotContain("Sort")
                    .doesNotContain("Seq Scan on messages");
        }
        for (String plan : plans(ReadStatements.LIST_READY.formatted(schema), "'drain'", "20", "100")) {
            assertThat(plan).as("page plan").contains("messages_claim_order").doesNotContain("Sort")
                    .doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void anOperatorsPagesOfWaitingAndDeadJobsWalkTheIndexOfTheirStateFromTheCursor() throws SQLException {
        execute("UPDATE " + schema + ".messages SET priority = (id % 3) - 1, "
                + "available_at = available_at + (id % 2) * 3600000 WHERE status = 0");
        execute("UPDATE " + schema + ".messages SET status = 3, last_error = 'boom' WHERE id > " + ROWS / 2);
        String ready = JobStatements.pageStatement(JobState.READY).formatted(schema);
        String delayed = JobStatements.pageStatement(JobState.DELAYED).formatted(schema);
        String failed = JobStatements.pageStatement(JobState.FAILED).formatted(schema);

        List<String> plans = new ArrayList<>();
        plans.addAll(plans(ready, "'drain'", "0", "'drain'", "'drain'", "5000000", "0", "1000030", "-1", "0",
                "30000", "-1", "50", "50"));
        plans.addAll(plans(delayed, "'drain'", "0", "'drain'", "'drain'", "0", "4600030", "5000000", "0", "30001",
                "9223372036854775807", "50", "50"));
        for (String plan : plans) {
            assertThat(plan).as("waiting page plan").contains("messages_claim_order").doesNotContain("Sort")
                    .doesNotContain("Seq Scan on messages");
        }
        for (String plan : plans(failed, "'drain'", "1000040", "40000", "50")) {
            assertThat(plan).as("dead letter page plan").contains("messages_failed").doesNotContain("Sort")
                    .doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void aWatchReadsTheJobsPutSinceItsLastLookAndThoseItFollowsByThePrimaryKey() throws SQLException {
        List<String> plans = new ArrayList<>();
        plans.addAll(plans(JobStatements.PUT.formatted(schema), String.valueOf(ROWS - 100), String.valueOf(ROWS),
                "'drain'", "50"));
        plans.addAll(plans(JobStatements.BY_IDS.formatted(schema), "'{1,2,3}'", "'drain'"));
        for (String plan : plans) {
            assertThat(plan).as("watch plan").contains("messages_pkey").doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void settlementsFindTheirRowsByIdNotByReadingEveryLease() throws SQLException {
        execute("UPDATE " + schema + ".messages SET status = 1, receipt = 'r-' || id, lease_until = 9000000 "
                + "WHERE id > " + ROWS / 4 + " AND id <= " + ROWS / 2);
        String ids = "'{" + (ROWS / 2 - 1) + "," + (ROWS / 2) + "}'";
        String queues = "'{drain,drain}'";
        String receipts = "'{r-1,r-2}'";
        String times = "'{5000000,5000000}'";

        List<String> plans = new ArrayList<>();
        plans.addAll(plans(LeaseStatements.ACK_ALL.formatted(schema), ids, queues, receipts, times, ids));
        plans.addAll(plans(LeaseStatements.EXTEND_ALL.formatted(schema), ids, queues, receipts, times,
                "'{6000000,6000000}'", ids));
        plans.addAll(plans(LeaseStatements.FAIL.formatted(schema), "'boom'", "'rejected'", "NULL", "5000000",
                String.valueOf(ROWS / 2), "'drain'", "'r-1'", "5000000"));
        for (String plan : plans) {
            assertThat(plan).as("settlement plan").contains("messages_pkey").doesNotContain("messages_leased")
                    .doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void thePendingCheckAndTheCountsReadTheIndexesOfTheirStates() throws SQLException {
        for (String plan : plans(ReadStatements.COUNT_PENDING_UP_TO.formatted(schema), "'drain'", "100", "'drain'",
                "100")) {
            assertThat(plan).as("pending check plan").contains("messages_claim_order").contains("messages_leased")
                    .doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void aPurgeReadsTheFinishedIndex() throws SQLException {
        for (String plan : plans(MaintenanceStatements.PURGE.formatted(schema), "'drain'", "2", "100")) {
            assertThat(plan).as("purge plan").contains("messages_finished").doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void aRetentionBatchReadsTheFinishedIndex() throws SQLException {
        for (String plan : plans(RetentionStatements.DELETE_FINISHED.formatted(schema), "'drain'", "2", "100", "500")) {
            assertThat(plan).as("retention plan").contains("messages_finished").doesNotContain("Seq Scan on messages");
        }
    }

    @Test
    void theQueueNamesAreFoundByProbingTheIndexesOfTheStates() throws SQLException {
        String plan = explain(ReadStatements.QUEUE_NAMES.formatted(schema));

        assertThat(plan).contains("messages_claim_order").contains("messages_leased").contains("messages_finished")
                .doesNotContain("Seq Scan on messages");
    }

    /**
     * Explains a statement twice: with the values bound, as its first executions are planned, and as the generic
     * plan of its prepared form.
     */
    private List<String> plans(String sql, String... values) throws SQLException {
        String numbered = numberParameters(sql);
        List<String> plans = new ArrayList<>();
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            statement.execute("PREPARE planned AS " + numbered);
            String execute = "EXPLAIN EXECUTE planned(" + String.join(", ", values) + ")";
            statement.execute("SET plan_cache_mode = force_custom_plan");
            plans.add(explain(statement, execute));
            statement.execute("SET plan_cache_mode = force_generic_plan");
            plans.add(explain(statement, execute));
        }
        return plans;
    }

    /**
     * Runs a statement under {@code EXPLAIN ANALYZE} with its values bound, in a transaction rolled back after, so its
     * writes are undone, and returns what the server did: rows, buffers and, since PostgreSQL 18, index searches.
     */
    private static String explainAnalysed(String sql, String... values) throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            try {
                statement.execute("PREPARE analysed AS " + numberParameters(sql));
                return explain(statement, "EXPLAIN (ANALYZE, BUFFERS) EXECUTE analysed(" + String.join(", ", values)
                        + ")");
            } finally {
                connection.rollback();
            }
        }
    }

    private static String explain(String sql) throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            return explain(statement, "EXPLAIN " + sql);
        }
    }

    private static String explain(Statement statement, String explain) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = statement.executeQuery(explain)) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    /** Turns JDBC's {@code ?} placeholders into PostgreSQL's {@code $1, $2, …}. */
    private static String numberParameters(String sql) {
        StringBuilder numbered = new StringBuilder();
        int next = 1;
        for (char c : sql.toCharArray()) {
            if (c == '?') {
                numbered.append('$').append(next++);
            } else {
                numbered.append(c);
            }
        }
        return numbered.toString();
    }
}
