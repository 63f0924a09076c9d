package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.sqlite.SqliteConnector;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statistics and diagnostics hold one read whose cost grows with the queue, the count by state; every other read of
 * the snapshot seeks the reference index or walks the leased rows, which are few.
 */
class ObservationQueryPlanTest {

    @TempDir
    Path dir;

    private SqliteQueueStore store;
    private Session session;

    @BeforeEach
    void openStore() throws SQLException {
        store = SqliteQueueStore.open(SqliteQueueStore.prepareDirectory(dir));
        session = new SqliteConnector(store.file()).open();
    }

    @AfterEach
    void closeStore() {
        session.close();
        store.close();
    }

    @Test
    void theCountByStateWalksOnlyTheQueuesEntriesOfTheCoveringIndex() throws SQLException {
        assertThat(plan(MaintenanceStatements.STATS, "q"))
                .containsExactly("SEARCH messages USING COVERING INDEX idx_messages_queue_status (queue=?)");
    }

    @Test
    void theOldestDueJobIsOneSeekOfTheCoveringIndex() throws SQLException {
        assertThat(plan(DiagnosticsStatements.OLDEST_DUE, "q", 1L)).containsExactly(
                "SEARCH messages USING COVERING INDEX idx_messages_queue_status (queue=? AND status=? AND available_at<?)");
    }

    @Test
    void theLeaseFiguresWalkOnlyTheQueuesLeasedRows() throws SQLException {
        assertThat(plan(DiagnosticsStatements.LEASES, 1L, "q"))
                .containsExactly("SEARCH messages USING INDEX idx_messages_queue_status (queue=? AND status=?)");
    }

    private List<String> plan(String sql, Object... args) throws SQLException {
        return session.query("EXPLAIN QUERY PLAN " + sql, statement -> {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
        }, rows -> {
            List<String> steps = new ArrayList<>();
            while (rows.next()) {
                steps.add(rows.getString(4));
            }
            return steps;
        });
    }
}
