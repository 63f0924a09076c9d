package io.localqueue.internal.store;

import io.localqueue.DurabilityMode;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What one read of a queue and its database saw, before any queue object's settings are added: the counts, the ages'
 * reference points and the file facts. It belongs to the queue, not to one queue object, so every object of the queue
 * can share it and {@link #describe describe} it with its own settings.
 *
 * @param queue the queue
 * @param stats the counts by state
 * @param observedAt when the clock was read, after the read began; epoch milliseconds
 * @param oldestDue the due time of the oldest due ready job, or null when none is due
 * @param delayed ready jobs not yet due at {@code observedAt}
 * @param nextDue the earliest due time after {@code observedAt}, or null when no job is delayed
 * @param retentionLastRun when the queue's retention last finished, by any process, or null when it never did
 * @param retentionLastDeleted how many rows that run deleted
 * @param pause the queue's pause for every process, or null while it runs
 * @param limits the queue's limits
 * @param heldJobs ready jobs a full concurrency key holds back
 * @param oldestLeaseUpdate the last change of the stalest leased job, or null when none is leased
 * @param activeLeases leases not yet expired at {@code observedAt}
 * @param expiredLeases leases expired at {@code observedAt} but not yet reclaimed
 * @param oldestExpiredLease the end of the oldest expired lease, or null when none
 * @param engineVersion the database engine's version
 * @param journalMode the journal mode, lower case
 * @param busyTimeoutMs how long a read waits on the database's lock
 * @param databaseSizeBytes the database file's size, or null when unknown
 * @param walSizeBytes the write-ahead log's size, or null when unknown
 * @param shmSizeBytes the shared-memory file's size, or null when unknown
 * @param pageCount pages in the database
 * @param pageSize bytes per page
 * @param freelistCount unused pages
 */
public record QueueSnapshot(String queue, QueueStats stats, long observedAt, @Nullable Long oldestDue,
                            long delayed, @Nullable Long nextDue, @Nullable Long retentionLastRun,
                            long retentionLastDeleted, @Nullable QueuePause pause, QueueLimits limits,
                            long heldJobs,
                            @Nullable Long oldestLeaseUpdate, long activeLeases, long expiredLeases,
                            @Nullable Long oldestExpiredLease, String engineVersion, String journalMode,
                            int busyTimeoutMs, @Nullable Long databaseSizeBytes, @Nullable Long walSizeBytes,
                            @Nullable Long shmSizeBytes, long pageCount, long pageSize, long freelistCount) {

    /**
     * Describes the snapshot as the diagnostics of one queue object, with its settings.
     *
     * @param profile the settings of the queue object asking; its queue is this snapshot's
     * @return the diagnostics
     */
    public QueueDiagnostics describe(QueueProfile profile) {
        long pending = stats.ready() + stats.processing();
        long maxPendingJobs = profile.maxPendingJobs();
        DurabilityMode durability = profile.durability();
        return new QueueDiagnostics(
                QueueDiagnostics.SCHEMA_VERSION,
                PackageVersion.current(),
                engineVersion,
                Instant.ofEpochMilli(observedAt),
                queue,
                profile.serializerIdentity(),
                profile.delivery().lease().toMillis() / 1000.0,
                profile.delivery().maxRetries(),
                maxPendingJobs > 0 ? maxPendingJobs : null,
                journalMode,
                durability.synchronousLevel(),
                durability == DurabilityMode.DURABLE ? "full" : "normal",
                busyTimeoutMs,
                databaseSizeBytes,
                walSizeBytes,
                shmSizeBytes,
                pageCount,
                pageSize,
                freelistCount,
                stats.ready(),
                stats.processing(),
                stats.acked(),
                stats.failed(),
                pending,
                maxPendingJobs > 0 ? Math.max(0, maxPendingJobs - pending) : null,
                ageSeconds(oldestDue),
                ageSeconds(oldestLeaseUpdate),
                activeLeases,
                expiredLeases,
                ageSeconds(oldestExpiredLease),
                delayed,
                nextDue == null ? null : Instant.ofEpochMilli(nextDue),
                retentionLastRun == null ? null : Instant.ofEpochMilli(retentionLastRun),
                retentionLastDeleted,
                pause == null ? null : Instant.ofEpochMilli(pause.pausedAt()),
                pause == null ? null : pause.pausedBy(),
                positiveOrNull(limits.maxConcurrent()),
                positiveOrNull(limits.maxConcurrentPerKey()),
                positiveOrNull(limits.ratePermits()),
                limits.ratePermits() > 0 ? limits.ratePeriodMillis() / 1000.0 : null,
                heldJobs);
    }

    private static @Nullable Integer positiveOrNull(int limit) {
        return limit > 0 ? limit : null;
    }

    private @Nullable Double ageSeconds(@Nullable Long since) {
        return since == null ? null : Math.max(0, observedAt - since) / 1000.0;
    }
}
