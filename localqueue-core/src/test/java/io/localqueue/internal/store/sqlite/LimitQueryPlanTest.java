package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A claim under limits reads through indexes and sorts nothing: the candidates walk the priority index and count
 * their key's leases in the leased-keys index, and the held jobs are found by key in their own index, so a claim's
 * cost does not grow with the backlog of a held key.
 */
class LimitQueryPlanTest extends QueryPlanTestBase {

    @Test
    void candidatesWalkThePriorityIndexAndCountLeasesThroughTheLeasedKeysIndex() throws SQLException {
        List<String> plan = plan(LimitStatements.CANDIDATES, "q", 0L, 1L, 10);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_priority"));
        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_leased_keys"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void aClaimOfOneUnderAPerKeyLimitWalksThePriorityIndexAndSortsNothing() throws SQLException {
        List<String> plan = plan(ClaimStatements.CLAIM_FIRST_ELIGIBLE, "r", 0L, 1L, "q", null, null, 0L, 5, 2);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_priority"));
        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_leased_keys"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).contains("SCAN messages"));
    }

    @Test
    void heldKeysAndTheirReleaseUseTheHeldIndexOnly() throws SQLException {
        List<String> keys = plan(LimitStatements.HELD_KEYS, "q");
        List<String> release = plan(LimitStatements.RELEASE, "q", "customer-1", 2);

        assertThat(keys).allSatisfy(step -> assertThat(step).doesNotContain("SCAN messages"));
        assertThat(keys).anySatisfy(step -> assertThat(step).contains("idx_messages_held"));
        assertThat(release).anySatisfy(step -> assertThat(step).contains("idx_messages_held"));
        assertThat(release).noneSatisfy(step -> assertThat(step).containsIgnoringCase("TEMP B-TREE"));
    }

    @Test
    void theControlsReadLooksUpOneRowAndOneEntryOfEachIndex() throws SQLException {
        List<String> plan = plan(LimitStatements.CONTROLS, "q", 0L);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("idx_messages_held"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).contains("SCAN"));
    }
}
