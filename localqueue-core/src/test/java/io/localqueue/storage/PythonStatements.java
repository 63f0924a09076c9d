package io.localqueue.storage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The statements of the Python library 1.4 for one queue, as its storage layer runs them, through plain JDBC. */
final class PythonStatements {

    private static final long LEASE_MILLIS = 30_000;

    private PythonStatements() {
    }

    /** Opens the file as the Python library does: foreign keys on, then its schema statements, all IF NOT EXISTS. */
    static Connection open(Path file) throws SQLException {
        Connection connection = RawSqlite.connect(file);
        RawSqlite.runScript(connection, "storage/python-1.4-schema.sql");
        return connection;
    }

    /** Claims the lowest due id, reclaim steps left out (no lease expires here); null when none is due. */
    static @Nullable Map<String, Object> claim(Connection python, String queue, long now, String receipt)
            throws SQLException {
        List<Map<String, Object>> due = RawSqlite.query(python, "SELECT id, payload, attempts FROM messages "
                + "WHERE queue = ? AND status = 0 AND available_at <= ? ORDER BY id LIMIT 1", queue, now);
        if (due.isEmpty()) {
            return null;
        }
        long id = (Long) due.get(0).get("id");
        update(python, "UPDATE messages SET status = 1, receipt = ?, lease_until = ?, attempts = attempts + 1, "
                + "max_attempts = COALESCE(NULL, max_attempts), updated_at = ? "
                + "WHERE id = ? AND queue = ? AND status = 0 AND available_at <= ?",
                receipt, now + LEASE_MILLIS, now, id, queue, now);
        return due.get(0);
    }

    static int ack(Connection python, String queue, long id, String receipt, long now) throws SQLException {
        return update(python, "UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, "
                + "updated_at = ? WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?",
                now, id, queue, receipt, now);
    }

    static int fail(Connection python, String queue, long id, String receipt, long now, String lastError) throws SQLException {
        return update(python, "UPDATE messages SET status = 3, last_error = ?, "
                + "failure_reason = 'explicit_permanent_failure', failure_category = NULL, receipt = NULL, "
                + "lease_until = NULL, updated_at = ? "
                + "WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?",
                lastError, now, id, queue, receipt, now);
    }

    static int retryFailed(Connection python, String queue, long id, long now) throws SQLException {
        return update(python, "UPDATE messages SET status = 0, available_at = ?, attempts = 0, receipt = NULL, "
                + "lease_until = NULL, last_error = NULL, failure_reason = NULL, failure_category = NULL, "
                + "updated_at = ? WHERE id = ? AND queue = ? AND status = 3", now, now, id, queue);
    }

    static int purgeAcked(Connection python, String queue, long cutoff) throws SQLException {
        return update(python, "DELETE FROM messages WHERE queue = ? AND status = 2 AND updated_at < ? "
                + "AND NOT EXISTS (SELECT 1 FROM event_bus_execution_deliveries d "
                + "WHERE d.message_id = messages.id)", queue, cutoff);
    }

    static long put(Connection python, String queue, String json, @Nullable String jobId, long now)
            throws SQLException {
        update(python, "INSERT OR IGNORE INTO messages (queue, payload, status, attempts, max_attempts, "
                + "available_at, lease_until, receipt, job_id, dedup_key, dedup_fingerprint, created_at, "
                + "updated_at) VALUES (?, ?, 0, 0, 4, ?, NULL, NULL, ?, NULL, NULL, ?, ?)",
                queue, json.getBytes(StandardCharsets.UTF_8), now, jobId, now, now);
        return (Long) RawSqlite.query(python, "SELECT last_insert_rowid() AS id").get(0).get("id");
    }

    private static int update(Connection python, String sql, @Nullable Object... arguments)
            throws SQLException {
        try (PreparedStatement statement = python.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            return statement.executeUpdate();
        }
    }
}
