package io.localqueue.internal.store.postgresql;

import io.localqueue.QueueStats;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.ReadyRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The reads of a PostgreSQL store that need no lock: counts by state, the pending-job check, pages of dead letters
 * and of ready jobs, and the names of the queues holding rows.
 */
final class ReadStatements {

    /** Counts by state, each read from the partial index of its state. */
    private static final String STATS = """
            SELECT (SELECT count(*) FROM %1$s.messages WHERE queue = ? AND status = 0),
                   (SELECT count(*) FROM %1$s.messages WHERE queue = ? AND status = 1),
                   (SELECT count(*) FROM %1$s.messages WHERE queue = ? AND status = 2),
                   (SELECT count(*) FROM %1$s.messages WHERE queue = ? AND status = 3)""";

    /**
     * Counts pending rows, ready then leased, but stops at {@code cap} in each, so the check costs O(limit), never
     * O(backlog).
     */
    static final String COUNT_PENDING_UP_TO = """
            SELECT (SELECT count(*) FROM (SELECT 1 FROM %1$s.messages WHERE queue = ? AND status = 0 LIMIT ?) AS r)
                 + (SELECT count(*) FROM (SELECT 1 FROM %1$s.messages WHERE queue = ? AND status = 1 LIMIT ?) AS l)""";

    /**
     * Every distinct queue name, a few index probes each (a loose index scan over the three indexes of the states,
     * which between them hold every row), however many rows the queues hold; with the queues whose pause or limits are
     * stored, so a paused queue that emptied is still named.
     */
    static final String QUEUE_NAMES = """
            WITH RECURSIVE names (name) AS (
                SELECT least((SELECT min(queue) FROM %1$s.messages WHERE status = 0),
                             (SELECT min(queue) FROM %1$s.messages WHERE status = 1),
                             (SELECT min(queue) FROM %1$s.messages WHERE status >= 2))
                UNION ALL
                SELECT least((SELECT min(queue) FROM %1$s.messages WHERE status = 0 AND queue > names.name),
                             (SELECT min(queue) FROM %1$s.messages WHERE status = 1 AND queue > names.name),
                             (SELECT min(queue) FROM %1$s.messages WHERE status >= 2 AND queue > names.name))
                  FROM names
                 WHERE name IS NOT NULL)
            SELECT name FROM names WHERE name IS NOT NULL
            UNION
            SELECT queue FROM %1$s.queue_controls
             WHERE paused_at IS NOT NULL OR max_concurrent IS NOT NULL OR max_per_key IS NOT NULL
                OR rate_permits IS NOT NULL
            ORDER BY 1""";

    private static final String LIST_FAILED = """
            SELECT id, payload, attempts, last_error, failure_reason, failure_category, created_at, updated_at,
                   %2$s, concurrency_key
              FROM %1$s.messages WHERE queue = ? AND status = 3 ORDER BY id LIMIT ? OFFSET ?"""
            .replace("%2$s", HeldPriority.decoded("priority"));

    /**
     * A page of ready rows in claim order from the claim-order index; the jobs a full concurrency key holds come after
     * every other, as claims without a per-key limit reach them.
     */
    static final String LIST_READY = """
            SELECT id, payload, attempts, available_at, created_at, last_error, %2$s, concurrency_key
              FROM %1$s.messages WHERE queue = ? AND status = 0
             ORDER BY priority, available_at, id LIMIT ? OFFSET ?""".replace("%2$s", HeldPriority.decoded("priority"));

    private ReadStatements() {
    }

    static QueueStats stats(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(STATS.formatted(schema))) {
            for (int parameter = 1; parameter <= 4; parameter++) {
                query.setString(parameter, queue);
            }
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return new QueueStats(rows.getLong(1), rows.getLong(2), rows.getLong(3), rows.getLong(4));
            }
        }
    }

    /** Tells whether the queue holds {@code limit} pending (ready or leased) rows or more. */
    static boolean isFull(Connection connection, String schema, String queue, long limit) throws SQLException {
        return pendingExceeds(connection, schema, queue, limit - 1);
    }

    /** Tells whether the queue holds more than {@code allowed} pending rows, counting at most one past it. */
    static boolean pendingExceeds(Connection connection, String schema, String queue, long allowed)
            throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(COUNT_PENDING_UP_TO.formatted(schema))) {
            count.setString(1, queue);
            count.setLong(2, allowed + 1);
            count.setString(3, queue);
            count.setLong(4, allowed + 1);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1) > allowed;
            }
        }
    }

    static List<String> queueNames(Connection connection, String schema) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery(QUEUE_NAMES.formatted(schema))) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    static List<FailedRow> listFailed(Connection connection, String schema, String queue, int limit, int offset)
            throws SQLException {
        return page(connection, LIST_FAILED.formatted(schema), queue, limit, offset, rows -> new FailedRow(
                rows.getLong(1), rows.getBytes(2), rows.getInt(3), rows.getString(4), rows.getString(5),
                rows.getString(6), rows.getLong(7), rows.getLong(8), rows.getInt(9), rows.getString(10)));
    }

    static List<ReadyRow> listReady(Connection connection, String schema, String queue, int limit, int offset)
            throws SQLException {
        return page(connection, LIST_READY.formatted(schema), queue, limit, offset, rows -> new ReadyRow(
                rows.getLong(1), rows.getBytes(2), rows.getInt(3), rows.getLong(4), rows.getLong(5),
                rows.getString(6), rows.getInt(7), rows.getString(8)));
    }

    /** Reads one row of a page. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /** Reads a page of one queue's rows, the query taking the queue, the limit and the offset in that order. */
    private static <T> List<T> page(Connection connection, String sql, String queue, int limit, int offset,
                                    RowReader<T> reader) throws SQLException {
        List<T> page = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, queue);
            query.setInt(2, limit);
            query.setInt(3, offset);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    page.add(reader.read(rows));
                }
            }
        }
        return page;
    }
}
