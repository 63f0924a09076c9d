package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.RowStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Retention on PostgreSQL: the named turns that let one host at a time delete a queue's finished rows, and the
 * bounded batches it deletes them in, from the index of finished rows.
 */
final class RetentionStatements {

    /** Takes a named turn unless another holder's lasts past now; one row changes when it is taken. */
    private static final String TAKE_TURN = """
            INSERT INTO %1$s.localqueue_turns AS t (name, holder, until) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
             WHERE t.until <= ? OR t.holder = EXCLUDED.holder""";

    private static final String FINISH_TURN = """
            UPDATE %1$s.localqueue_turns SET until = 0, last_run = ?, last_deleted = ? WHERE name = ? AND holder = ?""";

    private static final String LAST_TURN = "SELECT last_run, last_deleted FROM %1$s.localqueue_turns WHERE name = ?";

    /**
     * Deletes one batch of a queue's finished rows of one state changed before the cutoff, keeping those an execution
     * reports on; rows another transaction holds are skipped. The literal {@code status >= 2} lets the generic plan
     * read the index of finished rows, as the purge's does.
     */
    static final String DELETE_FINISHED = """
            DELETE FROM %1$s.messages WHERE id IN (
                SELECT m.id FROM %1$s.messages AS m
                 WHERE m.queue = ? AND m.status = ? AND m.status >= 2 AND m.updated_at < ?
                   AND NOT EXISTS (SELECT 1 FROM %1$s.event_bus_execution_deliveries AS d
                                    WHERE d.message_id = m.id)
                 ORDER BY m.updated_at LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private RetentionStatements() {
    }

    static boolean takeTurn(Connection connection, String schema, String name, String holder, long now, long until)
            throws SQLException {
        try (PreparedStatement take = connection.prepareStatement(TAKE_TURN.formatted(schema))) {
            take.setString(1, name);
            take.setString(2, holder);
            take.setLong(3, until);
            take.setLong(4, now);
            return take.executeUpdate() == 1;
        }
    }

    static void finishTurn(Connection connection, String schema, String name, String holder, long now, long deleted)
            throws SQLException {
        try (PreparedStatement finish = connection.prepareStatement(FINISH_TURN.formatted(schema))) {
            finish.setLong(1, now);
            finish.setLong(2, deleted);
            finish.setString(3, name);
            finish.setString(4, holder);
            finish.executeUpdate();
        }
    }

    static int deleteFinished(Connection connection, String schema, String queue, int status, long cutoff, int limit)
            throws SQLException {
        if (status != RowStatus.ACKED && status != RowStatus.FAILED) {
            throw new IllegalArgumentException("only finished rows are deleted, not status " + status);
        }
        try (PreparedStatement delete = connection.prepareStatement(DELETE_FINISHED.formatted(schema))) {
            delete.setString(1, queue);
            delete.setInt(2, status);
            delete.setLong(3, cutoff);
            delete.setInt(4, limit);
            return delete.executeUpdate();
        }
    }

    /**
     * Reads when a named turn last finished and what it deleted.
     *
     * @return {@code [lastRun, lastDeleted]}, or null when it never finished
     */
    static long @Nullable [] lastTurn(Connection connection, String schema, String name) throws SQLException {
        try (PreparedStatement last = connection.prepareStatement(LAST_TURN.formatted(schema))) {
            last.setString(1, name);
            try (ResultSet rows = last.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                long lastRun = rows.getLong(1);
                return rows.wasNull() ? null : new long[] {lastRun, rows.getLong(2)};
            }
        }
    }
}
