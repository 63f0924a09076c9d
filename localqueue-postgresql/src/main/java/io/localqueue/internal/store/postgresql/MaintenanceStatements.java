package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.RowStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Replays of dead letters, purges and the deletion of one job on PostgreSQL, each respecting the event bus's
 * executions: a replayed delivery makes every execution that reported on it incomplete again, and a purge or a
 * deletion keeps the rows an execution reports on.
 */
final class MaintenanceStatements {

    private static final String RETRY_FAILED = """
            UPDATE %1$s.messages
               SET status = 0, available_at = ?, attempts = 0, receipt = NULL, lease_until = NULL,
                   last_error = NULL, failure_reason = NULL, failure_category = NULL, updated_at = ?
             WHERE id = ? AND queue = ? AND status = 3""";

    private static final String IS_FAILED =
            "SELECT 1 FROM %1$s.messages WHERE id = ? AND queue = ? AND status = 3 FOR UPDATE";

    /** An execution that held a replayed delivery is no longer complete. */
    private static final String REOPEN_EXECUTIONS = """
            UPDATE %1$s.event_bus_execution_runtime SET completed_at = NULL
             WHERE execution_id IN (SELECT execution_id FROM %1$s.event_bus_execution_deliveries
                                     WHERE message_id = ?)""";

    /**
     * Deletes a queue's rows of one finished state. The literal {@code status >= 2} repeats what the parameter
     * says so that the prepared statement's generic plan, which cannot see the parameter, may still read the
     * index of finished rows.
     */
    static final String PURGE = """
            DELETE FROM %1$s.messages AS m
             WHERE m.queue = ? AND m.status = ? AND m.status >= 2 AND m.updated_at < ?
               AND NOT EXISTS (SELECT 1 FROM %1$s.event_bus_execution_deliveries AS d WHERE d.message_id = m.id)""";

    private static final String RESCHEDULE = """
            UPDATE %1$s.messages SET available_at = ?, updated_at = ? WHERE id = ? AND queue = ? AND status = 0""";

    /** Deletes one row of a status: a waiting job (0) cancelled, or a dead letter (3) deleted. */
    private static final String DELETE_ONE = """
            DELETE FROM %1$s.messages AS m WHERE m.id = ? AND m.queue = ? AND m.status = ?
               AND NOT EXISTS (SELECT 1 FROM %1$s.event_bus_execution_deliveries AS d WHERE d.message_id = m.id)""";

    private MaintenanceStatements() {
    }

    /** Moves a waiting job's due time; false when the job is not waiting in the queue (a claim holds it, or it ended). */
    static boolean reschedule(Connection connection, String schema, String queue, long id, long availableAt, long now)
            throws SQLException {
        try (PreparedStatement reschedule = connection.prepareStatement(RESCHEDULE.formatted(schema))) {
            reschedule.setLong(1, availableAt);
            reschedule.setLong(2, now);
            reschedule.setLong(3, id);
            reschedule.setString(4, queue);
            return reschedule.executeUpdate() == 1;
        }
    }

    /**
     * Deletes one row of the queue in a status, a waiting job or a dead letter, with its headers, unless an event-bus
     * execution reports on it; false when the queue holds no such row.
     *
     * @param status {@link RowStatus#READY} or {@link RowStatus#FAILED}
     */
    static boolean deleteOne(Connection connection, String schema, String queue, long id, int status)
            throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(DELETE_ONE.formatted(schema))) {
            delete.setLong(1, id);
            delete.setString(2, queue);
            delete.setInt(3, status);
            return delete.executeUpdate() == 1;
        }
    }

    /**
     * Makes a dead letter ready again with a fresh budget unless the queue is at its pending-job limit, which is
     * checked under the queue's advisory lock as an enqueue's is.
     *
     * @param limit the pending-job limit, or 0 for none
     */
    static DeadLetterRetry retryFailed(Connection connection, String schema, String queue, long id, long now,
                                       long limit) throws SQLException {
        if (limit > 0) {
            EnqueueStatements.lockQueue(connection, schema, queue);
        }
        try (PreparedStatement failed = connection.prepareStatement(IS_FAILED.formatted(schema))) {
            failed.setLong(1, id);
            failed.setString(2, queue);
            try (var rows = failed.executeQuery()) {
                if (!rows.next()) {
                    return DeadLetterRetry.NOT_A_DEAD_LETTER;
                }
            }
        }
        if (limit > 0 && ReadStatements.isFull(connection, schema, queue, limit)) {
            return DeadLetterRetry.QUEUE_FULL;
        }
        try (PreparedStatement retry = connection.prepareStatement(RETRY_FAILED.formatted(schema))) {
            retry.setLong(1, now);
            retry.setLong(2, now);
            retry.setLong(3, id);
            retry.setString(4, queue);
            retry.executeUpdate();
        }
        try (PreparedStatement reopen = connection.prepareStatement(REOPEN_EXECUTIONS.formatted(schema))) {
            reopen.setLong(1, id);
            reopen.executeUpdate();
        }
        return DeadLetterRetry.RETRIED;
    }

    /**
     * Deletes one state's rows last changed before {@code cutoff}, except those an execution reports on.
     *
     * @param status {@link RowStatus#ACKED} or {@link RowStatus#FAILED}
     * @return how many rows it deleted
     */
    static int purge(Connection connection, String schema, String queue, int status, long cutoff)
            throws SQLException {
        try (PreparedStatement purge = connection.prepareStatement(PURGE.formatted(schema))) {
            purge.setString(1, queue);
            purge.setInt(2, status);
            purge.setLong(3, cutoff);
            return purge.executeUpdate();
        }
    }
}
