package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.DeadLetterRetry;
import java.sql.SQLException;

/**
 * Dead-letter replay, the rescheduling and cancelling of waiting jobs, and purging of settled rows.
 */
final class MaintenanceStatements {

    private static final String IS_FAILED = "SELECT COUNT(*) FROM messages WHERE id = ? AND queue = ? AND status = 3";

    private static final String RETRY_FAILED = """
            UPDATE messages
               SET status = 0, available_at = ?1, attempts = 0, receipt = NULL, lease_until = NULL,
                   last_error = NULL, failure_reason = NULL, failure_category = NULL, updated_at = ?1
             WHERE id = ?2 AND queue = ?3 AND status = 3""";

    private static final String RESCHEDULE =
            "UPDATE messages SET available_at = ?, updated_at = ? WHERE id = ? AND queue = ? AND status = 0";

    /** Deletes one row of a status: a waiting job (0) cancelled, or a dead letter (3) deleted. */
    private static final String DELETE_ONE = "DELETE FROM messages WHERE id = ? AND queue = ? AND status = ?";

    private static final String PURGE =
            "DELETE FROM messages WHERE queue = ? AND status = ? AND updated_at < ?";

    private MaintenanceStatements() {
    }

    /** Moves a dead letter back to ready if the queue has room, and reopens a bus execution that delivered it. */
    static DeadLetterRetry retryFailed(Session session, String queue, long id, long now, long limit)
            throws SQLException {
        Long failed = session.queryLong(IS_FAILED, statement -> {
            statement.setLong(1, id);
            statement.setString(2, queue);
        });
        if (failed == null || failed == 0) {
            return DeadLetterRetry.NOT_A_DEAD_LETTER;
        }
        if (limit > 0 && EnqueueStatements.isFull(session, queue, limit)) {
            return DeadLetterRetry.QUEUE_FULL;
        }
        session.update(RETRY_FAILED, statement -> {
            statement.setLong(1, now);
            statement.setLong(2, id);
            statement.setString(3, queue);
        });
        BusExecutionRows.reopenExecutionsHolding(session, id);
        return DeadLetterRetry.RETRIED;
    }

    /** Moves a waiting job's due time; false when the job is not waiting in the queue. */
    static boolean reschedule(Session session, String queue, long id, long availableAt, long now)
            throws SQLException {
        return session.update(RESCHEDULE, statement -> {
            statement.setLong(1, availableAt);
            statement.setLong(2, now);
            statement.setLong(3, id);
            statement.setString(4, queue);
        }) == 1;
    }

    /**
     * Deletes one row of the queue in a status, a waiting job or a dead letter (its headers go by the foreign key),
     * unless an event-bus execution reports on it; false when the queue holds no such row.
     */
    static boolean deleteOne(Session session, String queue, long id, int status) throws SQLException {
        return session.update(DELETE_ONE + BusExecutionRows.notHeldByAnExecution(session), statement -> {
            statement.setLong(1, id);
            statement.setString(2, queue);
            statement.setInt(3, status);
        }) == 1;
    }

    /** Deletes settled rows of one status, keeping those an event-bus execution still reports on. */
    static int purge(Session session, String queue, int status, long cutoff) throws SQLException {
        return session.update(PURGE + BusExecutionRows.notHeldByAnExecution(session), statement -> {
            statement.setString(1, queue);
            statement.setInt(2, status);
            statement.setLong(3, cutoff);
        });
    }
}
