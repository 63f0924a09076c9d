package io.localqueue.internal.store.sqlite;

import java.sql.SQLException;

/**
 * What the queue's transitions must respect of the event bus's executions in a SQLite file: an execution (an
 * import run by a bus process, possibly the Python library's) reports on the deliveries it made, so purging keeps
 * those rows, and replaying one of them as a dead letter makes its execution incomplete again. In files without the
 * bus's tables both are no-ops, and there are no executions to list.
 */
final class BusExecutionRows {

    private static final String EXECUTIONS = "event_bus_executions";
    private static final String EXECUTION_RUNTIME = "event_bus_execution_runtime";
    private static final String EXECUTION_DELIVERIES = "event_bus_execution_deliveries";

    private static final String HAS_TABLE = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?";

    /** An execution that held a replayed delivery is no longer complete. */
    private static final String REOPEN_EXECUTIONS = """
            UPDATE event_bus_execution_runtime SET completed_at = NULL
             WHERE execution_id IN (SELECT execution_id FROM event_bus_execution_deliveries WHERE message_id = ?)""";

    /** A condition on {@code messages} rows: no execution delivered them. */
    private static final String NOT_IN_EXECUTION = " AND NOT EXISTS (SELECT 1 FROM event_bus_execution_deliveries d"
            + " WHERE d.message_id = messages.id)";

    private BusExecutionRows() {
    }

    /**
     * Marks every execution that delivered a message as incomplete, after that message was replayed.
     *
     * @param session the write transaction's session
     * @param messageId the replayed message
     * @throws SQLException when SQLite fails
     */
    public static void reopenExecutionsHolding(Session session, long messageId) throws SQLException {
        if (hasTable(session, EXECUTION_RUNTIME) && hasTable(session, EXECUTION_DELIVERIES)) {
            session.update(REOPEN_EXECUTIONS, statement -> statement.setLong(1, messageId));
        }
    }

    /**
     * Returns the condition to append to a {@code WHERE} clause on {@code messages} that keeps rows an execution
     * delivered, or an empty string when the file has no executions.
     *
     * @param session the session the statement will run on
     * @return the condition, starting with {@code AND}, or ""
     * @throws SQLException when SQLite fails
     */
    public static String notHeldByAnExecution(Session session) throws SQLException {
        return hasTable(session, EXECUTION_DELIVERIES) ? NOT_IN_EXECUTION : "";
    }

    /**
     * Tells whether the file holds the bus's execution tables, which a bus creates the first time it needs them.
     *
     * @param session the session to read on
     * @return true when both the executions and their runtime state have tables
     * @throws SQLException when SQLite fails
     */
    public static boolean hasExecutions(Session session) throws SQLException {
        return hasTable(session, EXECUTIONS) && hasTable(session, EXECUTION_RUNTIME);
    }

    private static boolean hasTable(Session session, String table) throws SQLException {
        Long count = session.queryLong(HAS_TABLE, statement -> statement.setString(1, table));
        return count != null && count > 0;
    }
}
