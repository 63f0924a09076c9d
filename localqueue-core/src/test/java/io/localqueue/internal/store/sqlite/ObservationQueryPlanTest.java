package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Statistics and diagnostics hold one read whose cost grows with the queue, the count by state; every other read of
 * the snapshot seeks the reference index or walks the leased rows, which are few.
 */
class ObservationQueryPlanTest extends QueryPlanTestBase {

    @Test
    void theCountByStateWalksOnlyTheQueuesEntriesOfTheCoveringIndex() throws SQLException {
        assertThat(plan(ReadStatements.STATS, "q"))
                .containsExactly("SEARCH messages USING COVERING INDEX idx_messages_queue_status (queue=?)");
    }

    @Test
    void theOldestDueJobIsOneSeekOfTheCoveringIndex() throws SQLException {
        assertThat(plan(SnapshotStatements.OLDEST_DUE, "q", 1L)).containsExactly(
                "SEARCH messages USING COVERING INDEX idx_messages_queue_status (queue=? AND status=? AND available_at<?)");
    }

    @Test
    void theLeaseFiguresWalkOnlyTheQueuesLeasedRows() throws SQLException {
        assertThat(plan(SnapshotStatements.LEASES, 1L, "q"))
                .containsExactly("SEARCH messages USING INDEX idx_messages_queue_status (queue=? AND status=?)");
    }
}
