package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The claim path must walk an index in claim order and stop early: a sort of every ready row would make each
 * claim cost grow with the backlog.
 */
class ClaimQueryPlanTest extends QueryPlanTestBase {

    @Test
    void claimWalksTheReferenceIndexWithoutSorting() throws SQLException {
        List<String> plan = plan(ClaimStatements.CLAIM, "r-", 1L, 1L, "q", 1);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_queue_status"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void claimStillWalksItWithoutSortingOverDelayedJobsAtTheHeadExpiredLeasesAndStatistics() throws SQLException {
        long now = 1_000_000L;
        try (Statement statement = session.connection().createStatement()) {
            statement.executeUpdate("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
                    INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, created_at,
                                          updated_at)
                    SELECT 'q', x'7b7d', 0, 0, 4, %d + 3600000, %d, %d FROM n""".formatted(now, now, now));
            statement.executeUpdate("""
                    INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, lease_until,
                                          receipt, created_at, updated_at)
                    VALUES ('q', x'7b7d', 1, 1, 4, %d, %d, 'r-gone', %d, %d)""".formatted(now, now - 1, now, now));
            statement.executeUpdate("""
                    INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, created_at,
                                          updated_at)
                    VALUES ('q', x'7b7d', 0, 0, 4, %d, %d, %d)""".formatted(now - 5, now, now));
            statement.executeUpdate("ANALYZE");
        }

        List<String> plan = plan(ClaimStatements.CLAIM, "r-", now + 30_000, now, "q", 10);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_queue_status"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void listingReadyJobsWalksTheReferenceIndexWithoutSorting() throws SQLException {
        List<String> plan = plan(ReadStatements.LIST_READY, "q", 10, 0);

        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void claimReadsEachClaimedRowsHeadersWithOneRowidProbe() throws SQLException {
        List<String> plan = plan(ClaimStatements.CLAIM, "r-", 1L, 1L, "q", 1);

        assertThat(plan).anySatisfy(step -> assertThat(step)
                .containsIgnoringCase("SEARCH message_headers USING INTEGER PRIMARY KEY"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("SCAN message_headers"));
    }

    @Test
    void probeSeeksIndexesWithoutScanningTheTable() throws SQLException {
        List<String> plan = plan(ClaimStatements.PROBE, "q");

        assertThat(plan).noneSatisfy(step -> assertThat(step).matches("(?i).*SCAN messages(?! USING).*"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void holdersAndTheirLeasesAreFoundAmongTheQueuesLeasedRowsAlone() throws SQLException {
        for (List<String> plan : List.of(plan(ClaimStatements.HOLDERS, "q", "h1", 16),
                plan(ClaimStatements.RECLAIM_ABANDONED, 1L, "q", "w", "r", "h1abc"))) {
            assertThat(plan).anySatisfy(step -> assertThat(step).containsIgnoringCase("SEARCH messages USING")
                    .contains("idx_messages_queue_status"));
            assertThat(plan).noneSatisfy(step -> assertThat(step).matches("(?i).*SCAN messages(?! USING).*"));
        }
    }

    @Test
    void expiredLeaseCheckSeeksLeasedRowsOfTheQueue() throws SQLException {
        List<String> plan = plan(ClaimStatements.ANY_EXPIRED, "q", 1L);

        assertThat(plan).anySatisfy(step -> assertThat(step).containsIgnoringCase("SEARCH messages USING"));
    }

    @Test
    void reclaimOnlyVisitsLeasedRowsOfTheQueue() throws SQLException {
        List<String> plan = plan(ClaimStatements.RECLAIM, 1L, "q");

        assertThat(plan).anySatisfy(step -> assertThat(step).containsIgnoringCase("SEARCH messages USING"));
    }

    @Test
    void aClaimWithABudgetWalksTheSameIndexWithoutSorting() throws SQLException {
        List<String> plan = plan(ClaimStatements.CLAIM_WITH_BUDGET, "r-", 1L, 1L, "q", 1, 3);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_queue_status"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void budgetingExpiredLeasesOnlyVisitsLeasedRowsOfTheQueue() throws SQLException {
        List<String> plan = plan(ClaimStatements.BUDGET_EXPIRED, "q", 1L, 3);

        assertThat(plan).anySatisfy(step -> assertThat(step).containsIgnoringCase("SEARCH messages USING"));
    }

    @Test
    void aPriorityClaimWalksThePriorityIndexWithoutSortingOverJobsNotYetDue() throws SQLException {
        long now = 1_000_000L;
        try (Statement statement = session.connection().createStatement()) {
            statement.executeUpdate("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
                    INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, created_at,
                                          updated_at, priority)
                    SELECT 'q', x'7b7d', 0, 0, 4, %d + (i %% 2) * 3600000, %d, %d, i %% 7 - 3 FROM n"""
                    .formatted(now, now, now));
            statement.executeUpdate("ANALYZE");
        }

        List<String> claim = plan(ClaimStatements.CLAIM_NEXT_PRIORITY, "r-", now + 30_000, now, "q", 10, 0, -4);
        List<String> next = plan(ClaimStatements.NEXT_PRIORITY, "q", -3);

        assertThat(claim).anySatisfy(step -> assertThat(step).contains("idx_messages_priority"));
        assertThat(claim).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
        assertThat(next).anySatisfy(step -> assertThat(step).contains("SEARCH messages USING COVERING INDEX "
                + "idx_messages_priority (queue=? AND priority>?)"));
    }

    @Test
    void aPriorityClaimWithABudgetWalksThePriorityIndexToo() throws SQLException {
        List<String> plan = plan(ClaimStatements.CLAIM_NEXT_PRIORITY_WITH_BUDGET, "r-", 1L, 1L, "q", 1, 3, 0);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_priority"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void theSweepOfRowsWithoutAPriorityWalksOnlyTheNewIdsByRowid() throws SQLException {
        List<String> plan = plan(PriorityStatements.SWEEP, "q", 10L, 20L);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("INTEGER PRIMARY KEY (rowid>? AND rowid<?)"));
    }

    @Test
    void aPageOfAQueueThatUsesPrioritiesSortsAtMostTheRowsUpToItsEnd() throws SQLException {
        List<String> plan = plan(ReadStatements.LIST_READY_BY_PRIORITY, "q", 10, 0);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_priority"));
        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_queue_status"));
    }
}
