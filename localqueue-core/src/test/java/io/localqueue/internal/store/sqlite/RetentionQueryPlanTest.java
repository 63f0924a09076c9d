package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A retention batch finds its rows through the reference index, bounded by the cutoff, never by a scan. */
class RetentionQueryPlanTest extends QueryPlanTestBase {

    @Test
    void aBatchDeleteWalksTheQueuesFinishedRowsDueBeforeTheCutoff() throws SQLException {
        List<String> plan = plan(RetentionStatements.DELETE_FINISHED + RetentionStatements.FINISHED_BEFORE
                + " LIMIT ?4)", "q", 2, 1_000L, 500);

        assertThat(plan).anySatisfy(step -> assertThat(step)
                .contains("idx_messages_queue_status (queue=? AND status=? AND available_at<?)"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsPattern("SCAN messages(?! USING)"));
    }
}
