package io.localqueue.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The claim path must walk an index in claim order and stop early: a sort of every ready row would make each
 * claim cost grow with the backlog.
 */
class ClaimQueryPlanTest extends DatabaseTestBase {

    @Test
    void claimWalksTheClaimIndexWithoutSorting() {
        List<String> plan = plan(ClaimStatements.CLAIM, "r-", 1L, 1L, "q", 1);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_claim"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void probeSeeksIndexesWithoutScanningTheTable() {
        List<String> plan = plan(ClaimStatements.PROBE, "q");

        assertThat(plan).noneSatisfy(step -> assertThat(step).matches("(?i).*SCAN messages(?! USING).*"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void expiredLeaseCheckSeeksLeasedRowsOfTheQueue() {
        List<String> plan = plan(ClaimStatements.ANY_EXPIRED, "q", 1L);

        assertThat(plan).anySatisfy(step -> assertThat(step).containsIgnoringCase("SEARCH messages USING"));
    }

    @Test
    void reclaimOnlyVisitsLeasedRowsOfTheQueue() {
        List<String> plan = plan(ClaimStatements.RECLAIM, 1L, "q");

        assertThat(plan).anySatisfy(step -> assertThat(step).containsIgnoringCase("SEARCH messages USING"));
    }

    private List<String> plan(String sql, Object... args) {
        return database.read(jdbc -> jdbc.query("EXPLAIN QUERY PLAN " + sql, (row, index) -> row.getString(4), args));
    }
}
