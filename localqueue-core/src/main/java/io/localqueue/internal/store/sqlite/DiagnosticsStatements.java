package io.localqueue.internal.store.sqlite;

import io.localqueue.DurabilityMode;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.store.PackageVersion;
import io.localqueue.internal.store.QueueProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The diagnostics snapshot: counts, ages and file facts of one queue, read in one deferred read transaction and
 * never writing (no reclaim, no checkpoint).
 */
final class DiagnosticsStatements {

    private static final String OLDEST_DUE =
            "SELECT MIN(available_at) FROM messages WHERE queue = ? AND status = 0 AND available_at <= ?";

    /** Leased rows are few (bounded by the consumers' concurrency), so one pass over them is cheap. */
    private static final String LEASES = """
            SELECT MIN(updated_at),
                   COALESCE(SUM(lease_until > ?1), 0),
                   COALESCE(SUM(lease_until <= ?1), 0),
                   MIN(CASE WHEN lease_until <= ?1 THEN lease_until END)
              FROM messages WHERE queue = ?2 AND status = 1""";

    private DiagnosticsStatements() {
    }

    static QueueDiagnostics collect(Session session, Path file, String sqliteVersion, QueueProfile profile,
                                    Clock clock) throws SQLException {
        Snapshot snapshot = snapshot(session, profile.queue(), clock);
        QueueStats stats = snapshot.stats;
        long pending = stats.ready() + stats.processing();
        long maxPendingJobs = profile.maxPendingJobs();
        DurabilityMode durability = profile.durability();
        return new QueueDiagnostics(
                QueueDiagnostics.SCHEMA_VERSION,
                PackageVersion.current(),
                sqliteVersion,
                Instant.ofEpochMilli(snapshot.observedAt),
                profile.queue(),
                profile.serializerIdentity(),
                profile.delivery().lease().toMillis() / 1000.0,
                profile.delivery().maxRetries(),
                maxPendingJobs > 0 ? maxPendingJobs : null,
                snapshot.journalMode.toLowerCase(Locale.ROOT),
                durability.synchronousLevel(),
                durability == DurabilityMode.DURABLE ? "full" : "normal",
                snapshot.busyTimeoutMs,
                sizeOf(file),
                sizeOf(Path.of(file + "-wal")),
                sizeOf(Path.of(file + "-shm")),
                snapshot.pageCount,
                snapshot.pageSize,
                snapshot.freelistCount,
                stats.ready(),
                stats.processing(),
                stats.acked(),
                stats.failed(),
                pending,
                maxPendingJobs > 0 ? Math.max(0, maxPendingJobs - pending) : null,
                ageSeconds(snapshot.observedAt, snapshot.oldestDue),
                ageSeconds(snapshot.observedAt, snapshot.oldestLeaseUpdate),
                snapshot.activeLeases,
                snapshot.expiredLeases,
                ageSeconds(snapshot.observedAt, snapshot.oldestExpiredLease));
    }

    /** Reads everything inside one deferred transaction, so all figures come from one snapshot of the file. */
    private static Snapshot snapshot(Session session, String queue, Clock clock) throws SQLException {
        session.control("BEGIN");
        try {
            return read(session, queue, clock);
        } finally {
            session.control("ROLLBACK");
        }
    }

    private static Snapshot read(Session session, String queue, Clock clock) throws SQLException {
        Snapshot snapshot = new Snapshot();
        // The first read fixes the snapshot; the clock is read after it, so no counted row is newer than "now".
        snapshot.stats = MaintenanceStatements.stats(session, queue);
        long now = clock.millis();
        snapshot.observedAt = now;
        snapshot.oldestDue = session.queryLong(OLDEST_DUE, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
        });
        session.query(LEASES, statement -> {
            statement.setLong(1, now);
            statement.setString(2, queue);
        }, rows -> {
            rows.next();
            snapshot.oldestLeaseUpdate = nullableLong(rows.getLong(1), rows.wasNull());
            snapshot.activeLeases = rows.getLong(2);
            snapshot.expiredLeases = rows.getLong(3);
            snapshot.oldestExpiredLease = nullableLong(rows.getLong(4), rows.wasNull());
            return null;
        });
        snapshot.journalMode = session.query("PRAGMA journal_mode", statement -> { },
                rows -> rows.next() ? rows.getString(1) : "unknown");
        snapshot.busyTimeoutMs = (int) pragma(session, "busy_timeout");
        snapshot.pageCount = pragma(session, "page_count");
        snapshot.pageSize = pragma(session, "page_size");
        snapshot.freelistCount = pragma(session, "freelist_count");
        return snapshot;
    }

    private static long pragma(Session session, String name) throws SQLException {
        Long value = session.queryLong("PRAGMA " + name, statement -> { });
        return value == null ? 0 : value;
    }

    private static @Nullable Long nullableLong(long value, boolean wasNull) {
        return wasNull ? null : value;
    }

    private static @Nullable Double ageSeconds(long observedAt, @Nullable Long since) {
        return since == null ? null : Math.max(0, observedAt - since) / 1000.0;
    }

    private static @Nullable Long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException | SecurityException missing) {
            return null;
        }
    }

    /** The values read inside the transaction. */
    private static final class Snapshot {
        QueueStats stats = new QueueStats(0, 0, 0, 0);
        long observedAt;
        @Nullable Long oldestDue;
        @Nullable Long oldestLeaseUpdate;
        long activeLeases;
        long expiredLeases;
        @Nullable Long oldestExpiredLease;
        String journalMode = "unknown";
        int busyTimeoutMs;
        long pageCount;
        long pageSize;
        long freelistCount;
    }
}
