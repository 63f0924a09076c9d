package io.localqueue.internal;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

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

    private static final String PACKAGE_VERSION = packageVersion();

    private DiagnosticsStatements() {
    }

    static QueueDiagnostics collect(Database database, String queue, String serializerIdentity,
                                    DeliveryPolicy delivery, DurabilityMode durability, long maxPendingJobs,
                                    Clock clock) {
        Snapshot snapshot = database.snapshot(jdbc -> read(jdbc, queue, clock));
        Path file = database.file();
        QueueStats stats = snapshot.stats;
        long pending = stats.ready() + stats.processing();
        return new QueueDiagnostics(
                QueueDiagnostics.SCHEMA_VERSION,
                PACKAGE_VERSION,
                database.sqliteVersion(),
                Instant.ofEpochMilli(snapshot.observedAt),
                queue,
                serializerIdentity,
                delivery.lease().toMillis() / 1000.0,
                delivery.maxRetries(),
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

    private static Snapshot read(JdbcTemplate jdbc, String queue, Clock clock) {
        Snapshot snapshot = new Snapshot();
        // The first read fixes the snapshot; the clock is read after it, so no counted row is newer than "now".
        snapshot.stats = MaintenanceStatements.stats(jdbc, queue);
        long now = clock.millis();
        snapshot.observedAt = now;
        snapshot.oldestDue = jdbc.query(OLDEST_DUE, rows -> rows.next() ? nullableLong(rows.getLong(1), rows.wasNull())
                : null, queue, now);
        jdbc.query(LEASES, rows -> {
            snapshot.oldestLeaseUpdate = nullableLong(rows.getLong(1), rows.wasNull());
            snapshot.activeLeases = rows.getLong(2);
            snapshot.expiredLeases = rows.getLong(3);
            snapshot.oldestExpiredLease = nullableLong(rows.getLong(4), rows.wasNull());
        }, now, queue);
        snapshot.journalMode = jdbc.queryForObject("PRAGMA journal_mode", String.class);
        snapshot.busyTimeoutMs = jdbc.queryForObject("PRAGMA busy_timeout", Integer.class);
        snapshot.pageCount = jdbc.queryForObject("PRAGMA page_count", Long.class);
        snapshot.pageSize = jdbc.queryForObject("PRAGMA page_size", Long.class);
        snapshot.freelistCount = jdbc.queryForObject("PRAGMA freelist_count", Long.class);
        return snapshot;
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

    private static String packageVersion() {
        String version = QueueDiagnostics.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
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
