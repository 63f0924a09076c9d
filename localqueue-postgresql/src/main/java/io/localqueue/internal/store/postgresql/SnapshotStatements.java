package io.localqueue.internal.store.postgresql;

import io.localqueue.QueueStats;
import io.localqueue.internal.store.Columns;
import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.Turns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;

/**
 * The snapshot behind diagnostics on PostgreSQL: one queue's counts and ages, read in one repeatable-read,
 * read-only transaction so that every figure comes from one snapshot, and the database's facts in the fields SQLite's
 * file facts take: {@code journalMode} is {@value #JOURNAL_MODE}, {@code busyTimeoutMs} the session's
 * {@code lock_timeout}, the database size the layout's tables and indexes ({@code pg_total_relation_size}), the WAL
 * and shared-memory sizes absent, and the page figures those of table {@code messages} ({@code relpages}, the
 * block size, no free list).
 */
final class SnapshotStatements {

    /** What diagnostics name the journal of a PostgreSQL database. */
    static final String JOURNAL_MODE = "postgresql-wal";

    /** The earliest due time of the queue's ready rows when it is not after the time bound last. */
    private static final String OLDEST_DUE = "SELECT due FROM (SELECT " + ClaimStatements.EARLIEST_DUE
            + " AS due) AS earliest WHERE due <= ?";

    /**
     * Counts the queue's delayed rows (a pass over its entries of the claim-order index) and seeks the first due time
     * after the bound of each priority; the parameters are the queue three times, the bound, the queue, the bound.
     */
    private static final String DELAYED = "WITH RECURSIVE " + ClaimStatements.LEVELS + """

            SELECT (SELECT count(*) FROM %1$s.messages WHERE queue = ? AND status = 0 AND available_at > ?),
                   (SELECT min((SELECT r.available_at FROM %1$s.messages AS r
                                 WHERE r.queue = ? AND r.status = 0 AND r.priority = levels.priority
                                   AND r.available_at > ?
                                 ORDER BY r.available_at LIMIT 1))
                      FROM levels WHERE levels.priority IS NOT NULL)""";

    /** Leased rows are few (bounded by the consumers' concurrency), so one pass over them is cheap. */
    private static final String LEASES = """
            SELECT min(updated_at), count(*) FILTER (WHERE lease_until > ?), count(*) FILTER (WHERE lease_until <= ?),
                   min(lease_until) FILTER (WHERE lease_until <= ?)
              FROM %1$s.messages WHERE queue = ? AND status = 1""";

    private static final String DATABASE = """
            SELECT current_setting('server_version'),
                   (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class AS c
                      JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'),
                   (SELECT relpages FROM pg_class WHERE oid = to_regclass(? || '.messages')),
                   current_setting('block_size')::bigint,
                   current_setting('lock_timeout')""";

    private SnapshotStatements() {
    }

    static QueueSnapshot snapshot(Connection connection, String schema, String queue, Clock clock)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (var isolation = connection.createStatement()) {
                isolation.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            }
            // The first read fixes the snapshot; the clock is read after it, so no counted row is newer than "now".
            QueueStats stats = ReadStatements.stats(connection, schema, queue);
            long now = clock.millis();
            Long oldestDue;
            try (PreparedStatement due = connection.prepareStatement(OLDEST_DUE.formatted(schema))) {
                due.setLong(ClaimStatements.bindEarliestDue(due, queue), now);
                try (ResultSet rows = due.executeQuery()) {
                    oldestDue = rows.next() ? Columns.nullableLong(rows, 1) : null;
                }
            }
            long delayed;
            Long nextDue;
            try (PreparedStatement later = connection.prepareStatement(DELAYED.formatted(schema))) {
                later.setString(1, queue);
                later.setString(2, queue);
                later.setString(3, queue);
                later.setLong(4, now);
                later.setString(5, queue);
                later.setLong(6, now);
                try (ResultSet rows = later.executeQuery()) {
                    rows.next();
                    delayed = rows.getLong(1);
                    nextDue = Columns.nullableLong(rows, 2);
                }
            }
            long[] retention = RetentionStatements.lastTurn(connection, schema, Turns.retention(queue));
            try (PreparedStatement leases = connection.prepareStatement(LEASES.formatted(schema));
                 PreparedStatement database = connection.prepareStatement(DATABASE)) {
                leases.setLong(1, now);
                leases.setLong(2, now);
                leases.setLong(3, now);
                leases.setString(4, queue);
                database.setString(1, schema);
                database.setString(2, schema);
                try (ResultSet lease = leases.executeQuery(); ResultSet facts = database.executeQuery()) {
                    lease.next();
                    facts.next();
                    return new QueueSnapshot(queue, stats, now, oldestDue, delayed, nextDue,
                            retention == null ? null : retention[0], retention == null ? 0 : retention[1],
                            PauseStatements.pauseOf(connection, schema, queue),
                            LimitStatements.limits(connection, schema, queue),
                            LimitStatements.heldCount(connection, schema, queue), Columns.nullableLong(lease, 1),
                            lease.getLong(2),
                            lease.getLong(3), Columns.nullableLong(lease, 4), facts.getString(1), JOURNAL_MODE,
                            milliseconds(facts.getString(5)), facts.getLong(2), null, null, facts.getLong(3),
                            facts.getLong(4), 0);
                }
            }
        } finally {
            connection.rollback();
            connection.setAutoCommit(autoCommit);
        }
    }

    /** Reads a {@code lock_timeout} setting ("0", "250ms", "5s", "1min") as milliseconds; 0 means no limit. */
    static int milliseconds(String setting) {
        String value = setting.trim();
        int digits = 0;
        while (digits < value.length() && Character.isDigit(value.charAt(digits))) {
            digits++;
        }
        if (digits == 0) {
            return 0;
        }
        long amount = Long.parseLong(value.substring(0, digits));
        long factor = switch (value.substring(digits).trim()) {
            case "", "ms" -> 1;
            case "s" -> 1_000;
            case "min" -> 60_000;
            case "h" -> 3_600_000;
            case "d" -> 86_400_000;
            default -> 0;
        };
        return (int) Math.min(Integer.MAX_VALUE, amount * factor);
    }
}
