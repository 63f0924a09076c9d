package io.localqueue.internal;

import io.localqueue.QueueStats;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Statistics, dead-letter listing and replay, and purging of settled rows.
 */
final class MaintenanceStatements {

    private static final String STATS = "SELECT status, COUNT(*) FROM messages WHERE queue = ? GROUP BY status";

    private static final String LIST_FAILED = """
            SELECT id, payload, attempts, last_error, failure_reason, failure_category, created_at, updated_at
              FROM messages WHERE queue = ? AND status = 3 ORDER BY id LIMIT ? OFFSET ?""";

    private static final String IS_FAILED = "SELECT COUNT(*) FROM messages WHERE id = ? AND queue = ? AND status = 3";

    private static final String RETRY_FAILED = """
            UPDATE messages
               SET status = 0, available_at = ?1, attempts = 0, receipt = NULL, lease_until = NULL,
                   last_error = NULL, failure_reason = NULL, failure_category = NULL, updated_at = ?1
             WHERE id = ?2 AND queue = ?3 AND status = 3""";

    /** An event-bus execution that held a replayed delivery is no longer complete. */
    private static final String REOPEN_EXECUTIONS = """
            UPDATE event_bus_execution_runtime SET completed_at = NULL
             WHERE execution_id IN (SELECT execution_id FROM event_bus_execution_deliveries WHERE message_id = ?)""";

    private static final String PURGE =
            "DELETE FROM messages WHERE queue = ? AND status = ? AND updated_at < ?";

    /** Rows that belong to an event-bus execution are kept: the execution still reports on them. */
    private static final String NOT_IN_EXECUTION = " AND NOT EXISTS (SELECT 1 FROM event_bus_execution_deliveries d"
            + " WHERE d.message_id = messages.id)";

    private MaintenanceStatements() {
    }

    static QueueStats stats(JdbcTemplate jdbc, String queue) {
        long[] counts = new long[4];
        jdbc.query(STATS, row -> {
            int status = row.getInt(1);
            if (status >= 0 && status < counts.length) {
                counts[status] = row.getLong(2);
            }
        }, queue);
        return new QueueStats(counts[Schema.STATUS_READY], counts[Schema.STATUS_LEASED],
                counts[Schema.STATUS_ACKED], counts[Schema.STATUS_FAILED]);
    }

    static List<FailedRow> listFailed(JdbcTemplate jdbc, String queue, int limit, int offset) {
        return jdbc.query(LIST_FAILED, (row, index) -> new FailedRow(row.getLong(1), row.getBytes(2), row.getInt(3),
                row.getString(4), row.getString(5), row.getString(6), row.getLong(7), row.getLong(8)),
                queue, limit, offset);
    }

    static boolean isFailed(JdbcTemplate jdbc, String queue, long id) {
        Long count = jdbc.queryForObject(IS_FAILED, Long.class, id, queue);
        return count != null && count > 0;
    }

    static void retryFailed(JdbcTemplate jdbc, String queue, long id, long now) {
        jdbc.update(RETRY_FAILED, now, id, queue);
        if (hasTable(jdbc, "event_bus_execution_runtime") && hasTable(jdbc, "event_bus_execution_deliveries")) {
            jdbc.update(REOPEN_EXECUTIONS, id);
        }
    }

    static int purge(JdbcTemplate jdbc, String queue, int status, long cutoff) {
        String sql = hasTable(jdbc, "event_bus_execution_deliveries") ? PURGE + NOT_IN_EXECUTION : PURGE;
        return jdbc.update(sql, queue, status, cutoff);
    }

    private static boolean hasTable(JdbcTemplate jdbc, String table) {
        Long count = jdbc.queryForObject(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", Long.class, table);
        return count != null && count > 0;
    }
}
