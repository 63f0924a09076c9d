package io.localqueue.internal.store.sqlite;

import io.localqueue.QueueStats;
import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.Turns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The snapshot behind diagnostics: counts, ages and file facts of one queue, read in one deferred read transaction and
 * never writing (no reclaim, no checkpoint). The counts are the one read whose cost grows with the queue (SQLite
 * steps the index entry by entry); every other read seeks the index or walks the leased rows only.
 */
final class SnapshotStatements {

    /** Seeks the first due entry of the queue's ready rows in the reference index: one step, whatever the backlog. */
    static final String OLDEST_DUE =
            "SELECT MIN(available_at) FROM messages WHERE queue = ? AND status = 0 AND available_at <= ?";

    /** Counts the queue's delayed rows, a range of the reference index, and seeks the first of them. */
    static final String DELAYED = """
            SELECT COUNT(*), MIN(available_at) FROM messages WHERE queue = ? AND status = 0 AND available_at > ?""";

    /** Leased rows are few (bounded by the consumers' concurrency), so one pass over them is cheap. */
    static final String LEASES = """
            SELECT MIN(updated_at),
                   COALESCE(SUM(lease_until > ?1), 0),
                   COALESCE(SUM(lease_until <= ?1), 0),
                   MIN(CASE WHEN lease_until <= ?1 THEN lease_until END)
              FROM messages WHERE queue = ?2 AND status = 1""";

    private SnapshotStatements() {
    }

    /** Reads everything inside one deferred transaction, so all figures come from one snapshot of the file. */
    static QueueSnapshot snapshot(Session session, Path file, String sqliteVersion, String queue, Clock clock)
            throws SQLException {
        session.control("BEGIN");
        try {
            return read(session, file, sqliteVersion, queue, clock);
        } finally {
            session.control("ROLLBACK");
        }
    }

    private static QueueSnapshot read(Session session, Path file, String sqliteVersion, String queue, Clock clock)
            throws SQLException {
        // The first read fixes the snapshot; the clock is read after it, so no counted row is newer than "now".
        QueueStats stats = ReadStatements.stats(session, queue);
        long now = clock.millis();
        Long oldestDue = session.queryLong(OLDEST_DUE, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
        });
        Delayed delayed = session.query(DELAYED, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
        }, rows -> {
            rows.next();
            long count = rows.getLong(1);
            return new Delayed(count, nullableLong(rows.getLong(2), rows.wasNull()));
        });
        Leases leases = session.query(LEASES, statement -> {
            statement.setLong(1, now);
            statement.setString(2, queue);
        }, rows -> {
            rows.next();
            Long oldestUpdate = nullableLong(rows.getLong(1), rows.wasNull());
            long active = rows.getLong(2);
            long expired = rows.getLong(3);
            return new Leases(oldestUpdate, active, expired, nullableLong(rows.getLong(4), rows.wasNull()));
        });
        long[] retention = RetentionStatements.lastTurn(session, Turns.retention(queue));
        String journalMode = session.query("PRAGMA journal_mode", statement -> { },
                rows -> rows.next() ? rows.getString(1) : "unknown");
        return new QueueSnapshot(queue, stats, now, oldestDue, delayed.count, delayed.nextDue,
                retention == null ? null : retention[0], retention == null ? 0 : retention[1],
                PauseStatements.pauseOf(session, queue), LimitStatements.limits(session, queue),
                LimitStatements.heldCount(session, queue), leases.oldestUpdate,
                leases.active, leases.expired, leases.oldestExpired, sqliteVersion, journalMode.toLowerCase(Locale.ROOT),
                (int) pragma(session, "busy_timeout"), sizeOf(file), sizeOf(Path.of(file + "-wal")),
                sizeOf(Path.of(file + "-shm")), pragma(session, "page_count"), pragma(session, "page_size"),
                pragma(session, "freelist_count"));
    }

    private static long pragma(Session session, String name) throws SQLException {
        Long value = session.queryLong("PRAGMA " + name, statement -> { });
        return value == null ? 0 : value;
    }

    private static @Nullable Long nullableLong(long value, boolean wasNull) {
        return wasNull ? null : value;
    }

    private static @Nullable Long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException | SecurityException missing) {
            return null;
        }
    }

    /** The delayed rows' figures. */
    private record Delayed(long count, @Nullable Long nextDue) {
    }

    /** The leased rows' figures. */
    private record Leases(@Nullable Long oldestUpdate, long active, long expired, @Nullable Long oldestExpired) {
    }
}
