package io.localqueue;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A read-only snapshot of one queue and its database file (report schema version 2, shared with the Python
 * library): counts and ages come from one consistent read, ages are measured at {@code observedAt} and never
 * negative, and file sizes are best effort (null when a file is missing or unreadable).
 *
 * @param schemaVersion the version of this report's layout, 2
 * @param packageVersion the localqueue version, or "development" when run from a build without one
 * @param sqliteVersion the SQLite library version
 * @param observedAt when the snapshot's clock was read
 * @param queueName the queue
 * @param serializerIdentity the payload format, {@code localqueue.JsonSerializer} for the default one
 * @param leaseSeconds this queue object's lease, in seconds
 * @param maxRetries this queue object's retry budget
 * @param maxPendingJobs this queue object's pending-job limit, or null when unlimited
 * @param journalMode the journal mode, lower case ({@code wal})
 * @param synchronous the synchronous level this queue commits with (1 NORMAL, 2 FULL)
 * @param durabilityMode "normal", "full" or "unknown", from {@code synchronous}
 * @param busyTimeoutMs how long a read waits on SQLite's lock before failing
 * @param databaseSizeBytes the database file's size
 * @param walSizeBytes the {@code -wal} file's size
 * @param shmSizeBytes the {@code -shm} file's size
 * @param pageCount pages in the database
 * @param pageSize bytes per page
 * @param freelistCount unused pages that {@code vacuum} would give back
 * @param ready ready jobs, including delayed ones
 * @param processing leased jobs, including expired leases not yet reclaimed
 * @param acked acknowledged jobs not yet purged
 * @param failed dead letters
 * @param pendingJobs ready plus processing
 * @param availableSlots room left under the limit, or null when unlimited
 * @param oldestAvailableAgeSeconds how long the oldest due job has been waiting, or null when none is due
 * @param oldestProcessingUpdatedAgeSeconds time since the stalest leased job last changed (claim or extension)
 * @param activeLeases leases not yet expired
 * @param expiredLeases leases expired but not yet reclaimed
 * @param oldestExpiredLeaseAgeSeconds how long ago the oldest expired lease ended, or null when none
 * @param delayed the jobs among {@code ready} not yet due (put with a delay, or retried after one), which no claim
 *                takes before their time
 * @param nextDueAt when the earliest delayed job falls due, or null when none is delayed
 * @param retentionLastRunAt when the background deletion of the queue's finished jobs last finished, in any process,
 *                           or null when it never did
 * @param retentionLastDeleted how many finished jobs that run deleted
 * @param pausedAt when the queue was paused for every process ({@link SimpleQueue#pause()}), or null while it runs
 * @param pausedBy which process paused it ({@code pid@host}), or null while it runs
 * @param maxConcurrent the queue's limit of jobs leased at once, which every process obeys, or null for none
 * @param maxConcurrentPerKey the queue's limit of jobs of one concurrency key leased at once, or null for none
 * @param rateLimitPermits how many claims the queue's rate limit lets through per period, or null for none
 * @param rateLimitPeriodSeconds the rate limit's period, or null for none
 * @param heldJobs ready jobs a full concurrency key holds back; due jobs a limit leaves before a claim reaches them
 *                 are not counted
 *
 * @since 0.1.0
 */
public record QueueDiagnostics(
        int schemaVersion,
        String packageVersion,
        String sqliteVersion,
        Instant observedAt,
        String queueName,
        String serializerIdentity,
        double leaseSeconds,
        int maxRetries,
        @Nullable Long maxPendingJobs,
        String journalMode,
        int synchronous,
        String durabilityMode,
        int busyTimeoutMs,
        @Nullable Long databaseSizeBytes,
        @Nullable Long walSizeBytes,
        @Nullable Long shmSizeBytes,
        long pageCount,
        long pageSize,
        long freelistCount,
        long ready,
        long processing,
        long acked,
        long failed,
        long pendingJobs,
        @Nullable Long availableSlots,
        @Nullable Double oldestAvailableAgeSeconds,
        @Nullable Double oldestProcessingUpdatedAgeSeconds,
        long activeLeases,
        long expiredLeases,
        @Nullable Double oldestExpiredLeaseAgeSeconds,
        long delayed,
        @Nullable Instant nextDueAt,
        @Nullable Instant retentionLastRunAt,
        long retentionLastDeleted,
        @Nullable Instant pausedAt,
        @Nullable String pausedBy,
        @Nullable Integer maxConcurrent,
        @Nullable Integer maxConcurrentPerKey,
        @Nullable Integer rateLimitPermits,
        @Nullable Double rateLimitPeriodSeconds,
        long heldJobs) {

    /** The layout version of this report. */
    public static final int SCHEMA_VERSION = 2;

    /**
     * Returns the report as JSON-ready scalars under the snake_case keys of the Python library, in field order, then
     * this library's own ({@code delayed}, {@code next_due_at}, {@code retention_last_run_at},
     * {@code retention_last_deleted}, the pause, the limits and {@code held_jobs}); every time is in epoch seconds.
     *
     * @return an unmodifiable map whose values are strings, numbers, or null
     */
    public Map<String, @Nullable Object> toMap() {
        Map<String, @Nullable Object> map = new LinkedHashMap<>();
        map.put("schema_version", schemaVersion);
        map.put("package_version", packageVersion);
        map.put("sqlite_version", sqliteVersion);
        map.put("observed_at", observedAt.toEpochMilli() / 1000.0);
        map.put("queue_name", queueName);
        map.put("serializer_identity", serializerIdentity);
        map.put("lease_seconds", leaseSeconds);
        map.put("max_retries", maxRetries);
        map.put("max_pending_jobs", maxPendingJobs);
        map.put("journal_mode", journalMode);
        map.put("synchronous", synchronous);
        map.put("durability_mode", durabilityMode);
        map.put("busy_timeout_ms", busyTimeoutMs);
        map.put("database_size_bytes", databaseSizeBytes);
        map.put("wal_size_bytes", walSizeBytes);
        map.put("shm_size_bytes", shmSizeBytes);
        map.put("page_count", pageCount);
        map.put("page_size", pageSize);
        map.put("freelist_count", freelistCount);
        map.put("ready", ready);
        map.put("processing", processing);
        map.put("acked", acked);
        map.put("failed", failed);
        map.put("pending_jobs", pendingJobs);
        map.put("available_slots", availableSlots);
        map.put("oldest_available_age_seconds", oldestAvailableAgeSeconds);
        map.put("oldest_processing_updated_age_seconds", oldestProcessingUpdatedAgeSeconds);
        map.put("active_leases", activeLeases);
        map.put("expired_leases", expiredLeases);
        map.put("oldest_expired_lease_age_seconds", oldestExpiredLeaseAgeSeconds);
        map.put("delayed", delayed);
        map.put("next_due_at", nextDueAt == null ? null : nextDueAt.toEpochMilli() / 1000.0);
        map.put("retention_last_run_at", retentionLastRunAt == null ? null
                : retentionLastRunAt.toEpochMilli() / 1000.0);
        map.put("retention_last_deleted", retentionLastDeleted);
        map.put("paused_at", pausedAt == null ? null : pausedAt.toEpochMilli() / 1000.0);
        map.put("paused_by", pausedBy);
        map.put("max_concurrent", maxConcurrent);
        map.put("max_concurrent_per_key", maxConcurrentPerKey);
        map.put("rate_limit_permits", rateLimitPermits);
        map.put("rate_limit_period_seconds", rateLimitPeriodSeconds);
        map.put("held_jobs", heldJobs);
        return Collections.unmodifiableMap(map);
    }
}
