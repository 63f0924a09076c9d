package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.RowStatus;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Retention: the named turns that let one process at a time delete a queue's finished rows, and the bounded batches
 * it deletes them in.
 */
final class RetentionStatements {

    /**
     * Takes a named turn: a new row, or the row of a turn that ended or was the same holder's; a turn another holder
     * still has leaves the row unchanged, and no row changes.
     */
    private static final String TAKE_TURN = """
            INSERT INTO localqueue_turns (name, holder, until) VALUES (?1, ?2, ?4)
            ON CONFLICT (name) DO UPDATE SET holder = ?2, until = ?4 WHERE until <= ?3 OR holder = ?2""";

    private static final String FINISH_TURN = """
            UPDATE localqueue_turns SET until = 0, last_run = ?3, last_deleted = ?4 WHERE name = ?1 AND holder = ?2""";

    /** When a named turn last finished and what it deleted. */
    static final String LAST_TURN = "SELECT last_run, last_deleted FROM localqueue_turns WHERE name = ?";

    /**
     * The first finished rows of one state whose last change is before the cutoff, from the reference index: a
     * finished row's last change is never before its due time, so only the rows due before the cutoff are walked.
     */
    static final String FINISHED_BEFORE = """
            SELECT id FROM messages INDEXED BY idx_messages_queue_status
             WHERE queue = ?1 AND status = ?2 AND available_at < ?3 AND updated_at < ?3""";

    static final String DELETE_FINISHED = "DELETE FROM messages WHERE id IN (";

    private RetentionStatements() {
    }

    static boolean takeTurn(Session session, String name, String holder, long now, long until) throws SQLException {
        return session.update(TAKE_TURN, statement -> {
            statement.setString(1, name);
            statement.setString(2, holder);
            statement.setLong(3, now);
            statement.setLong(4, until);
        }) == 1;
    }

    static void finishTurn(Session session, String name, String holder, long now, long deleted)
            throws SQLException {
        session.update(FINISH_TURN, statement -> {
            statement.setString(1, name);
            statement.setString(2, holder);
            statement.setLong(3, now);
            statement.setLong(4, deleted);
        });
    }

    /**
     * Deletes one batch of finished rows (their headers go by the foreign key), keeping those an event-bus execution
     * reports on.
     */
    static int deleteFinished(Session session, String queue, int status, long cutoff, int limit)
            throws SQLException {
        if (status != RowStatus.ACKED && status != RowStatus.FAILED) {
            throw new IllegalArgumentException("only finished rows are deleted, not status " + status);
        }
        String sql = DELETE_FINISHED + FINISHED_BEFORE + BusExecutionRows.notHeldByAnExecution(session) + " LIMIT ?4)";
        return session.update(sql, statement -> {
            statement.setString(1, queue);
            statement.setInt(2, status);
            statement.setLong(3, cutoff);
            statement.setInt(4, limit);
        });
    }

    /**
     * Reads when a named turn last finished and what it deleted.
     *
     * @return {@code [lastRun, lastDeleted]}, or null when it never finished
     */
    static long @Nullable [] lastTurn(Session session, String name) throws SQLException {
        return session.query(LAST_TURN, statement -> statement.setString(1, name), rows -> {
            if (!rows.next()) {
                return null;
            }
            long lastRun = rows.getLong(1);
            if (rows.wasNull()) {
                return null;
            }
            return new long[] {lastRun, rows.getLong(2)};
        });
    }
}
