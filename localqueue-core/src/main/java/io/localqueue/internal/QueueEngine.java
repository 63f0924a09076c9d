package io.localqueue.internal;

import io.localqueue.BackupResult;
import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.FailureReason;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.JobNotFoundException;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueFullException;
import io.localqueue.QueueStats;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One logical queue over a shared {@link Database}, working in bytes: claims with waiting, enqueue with
 * backpressure, fenced transitions and maintenance. The typed public facades sit on top of it.
 */
public final class QueueEngine {

    /** Pauses of a claim that lost the write lock: short, since a read decides whether to try again. */
    private static final long CLAIM_FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long CLAIM_MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Database database;
    private final String queue;
    private final DeliveryPolicy delivery;
    private final DurabilityMode durability;
    private final long maxPendingJobs;
    private final Clock clock;
    private final Runnable ensureOpen = this::ensureOpen;
    private volatile boolean closed;
    /** After a claim found work, the next claim skips the probe: the queue most likely has more. */
    private volatile boolean lastClaimFound;
    private final LeaseExpiryWatch leaseExpiry = new LeaseExpiryWatch();

    /**
     * Creates the engine; the caller keeps ownership of the database reference.
     *
     * @param maxPendingJobs the pending-job limit, or 0 for none
     */
    public QueueEngine(Database database, String queue, DeliveryPolicy delivery, DurabilityMode durability,
                       long maxPendingJobs, Clock clock) {
        this.database = database;
        this.queue = queue;
        this.delivery = delivery;
        this.durability = durability;
        this.maxPendingJobs = maxPendingJobs;
        this.clock = clock;
    }

    /** Returns the database this queue lives in. */
    public Database database() {
        return database;
    }

    /** Returns the clock that stamps this queue's rows. */
    public Clock clock() {
        return clock;
    }

    /**
     * Inserts all jobs in one transaction, waiting up to {@code timeoutNanos} for room when a limit is set.
     *
     * @return the ids in input order
     * @throws QueueFullException when there is no room before the timeout, or at once when the batch can never fit
     */
    public List<Long> putMany(List<NewJob> jobs, long timeoutNanos) {
        if (jobs.isEmpty()) {
            ensureOpen();
            return List.of();
        }
        Deadline deadline = Deadline.after(timeoutNanos);
        while (true) {
            long seen = database.changes().version(queue);
            EnqueueStatements.Outcome outcome = database.write(durability, Database.WRITE_BUDGET_NANOS, ensureOpen,
                    jdbc -> EnqueueStatements.insert(jdbc, queue, jobs, delivery.maxAttempts(), clock.millis(),
                            maxPendingJobs));
            if (outcome.ids() != null) {
                wakeWaiters();
                return outcome.ids();
            }
            if (outcome.impossible()) {
                throw new QueueFullException("queue '" + queue + "' is full: the batch adds " + outcome.newRows()
                        + " jobs but maxPendingJobs is " + maxPendingJobs);
            }
            if (!awaitChange(seen, deadline, Long.MAX_VALUE)) {
                throw new QueueFullException("queue '" + queue + "' is full: maxPendingJobs is " + maxPendingJobs);
            }
        }
    }

    /**
     * Claims the first due job, waiting up to {@code timeoutNanos} for one; zero makes one attempt that never waits
     * for another writer's lock.
     *
     * @throws QueueEmptyException when no job could be claimed in time
     */
    public ClaimedRow claim(long timeoutNanos) {
        return claim(timeoutNanos, 1).get(0);
    }

    /**
     * Claims up to {@code limit} due jobs in one transaction, in claim order, waiting like {@link #claim(long)} for
     * at least one.
     */
    public List<ClaimedRow> claim(long timeoutNanos, int limit) {
        List<ClaimedRow> rows = claim(timeoutNanos, limit, () -> false);
        if (rows.isEmpty()) {
            throw new QueueEmptyException("queue '" + queue + "' is empty");
        }
        return rows;
    }

    /**
     * Claims like {@link #claim(long, int)}, but returns an empty list instead of throwing when the timeout passes
     * or when {@code cancelled} turns true; {@link #wakeWaiters()} makes a waiting call look at it at once.
     */
    public List<ClaimedRow> claim(long timeoutNanos, int limit, BooleanSupplier cancelled) {
        boolean nowait = timeoutNanos == 0;
        Deadline deadline = Deadline.after(timeoutNanos);
        Backoff contention = database.backoff(CLAIM_FIRST_PAUSE_NANOS, CLAIM_MAX_PAUSE_NANOS);
        while (!cancelled.getAsBoolean()) {
            ensureOpen();
            long seen = database.changes().version(queue);
            if (lastClaimFound) {
                List<ClaimedRow> rows = claimNow(nowait, limit, contention);
                if (rows == null) {
                    continue;
                }
                if (!rows.isEmpty()) {
                    return rows;
                }
            }
            long now = clock.millis();
            ClaimStatements.Probe probe = database.read(jdbc -> ClaimStatements.probe(jdbc, queue));
            if (probe.claimable(now)) {
                leaseExpiry.forget();
                List<ClaimedRow> rows = claimNow(nowait, limit, contention);
                if (rows == null) {
                    continue;
                }
                if (!rows.isEmpty()) {
                    return rows;
                }
            }
            if (nowait || !awaitChange(seen, deadline, probe.millisUntilNextEvent(now))) {
                return List.of();
            }
        }
        return List.of();
    }

    /**
     * Makes one claim attempt. When another connection holds the write lock it returns null after a short pause,
     * so the caller looks (with a read) whether the job is still there before trying again: consumers racing for
     * one new job then stop at the read instead of queueing for the lock only to find nothing.
     */
    private @Nullable List<ClaimedRow> claimNow(boolean nowait, int limit, Backoff contention) {
        ClaimStatements.Claim claim;
        try {
            WriteWork<ClaimStatements.Claim> work = jdbc -> {
                long now = clock.millis();
                boolean lookForExpired = leaseExpiry.due(now);
                ClaimStatements.Claim done = ClaimStatements.claim(jdbc, queue, now, delivery.lease().toMillis(), limit,
                        lookForExpired);
                if (lookForExpired) {
                    leaseExpiry.looked(now, done.reclaimed() > 0);
                }
                return done;
            };
            claim = nowait ? database.write(durability, 0, ensureOpen, work)
                    : database.writeOnceInLine(durability, ensureOpen, work);
        } catch (WriteLockBusyException busy) {
            if (nowait) {
                throw new QueueEmptyException("queue '" + queue + "' is temporarily unavailable: " + busy.getMessage(),
                        busy);
            }
            contention.pause(database.file().toString(), busy);
            return null;
        }
        contention.reset();
        if (claim.reclaimed() > 0) {
            wakeWaiters();
        }
        lastClaimFound = !claim.rows().isEmpty();
        return claim.rows();
    }

    /** Wakes this JVM's threads waiting on this queue, so they re-check their queue and cancellation. */
    public void wakeWaiters() {
        database.changes().signal(queue);
    }

    /** Acknowledges a delivery. */
    public void ack(long id, String receipt) {
        ensureOpen();
        boolean done = database.writeGrouped(durability,
                jdbc -> LeaseStatements.ack(jdbc, queue, id, receipt, clock.millis()));
        requireLease(done, id);
        wakeWaiters();
    }

    /**
     * Returns a delivery to the queue after {@code delayMillis}, or makes it a dead letter when its budget is spent.
     *
     * @return true when the job became a dead letter
     */
    public boolean nack(long id, String receipt, long delayMillis, @Nullable String lastError,
                        FailureReason exhaustedReason) {
        ensureOpen();
        Integer status = database.writeGrouped(durability, jdbc -> {
            long now = clock.millis();
            Long availableAt = delayMillis == 0 ? null : Durations.addToTimestamp(now, delayMillis, "delay");
            return LeaseStatements.nack(jdbc, queue, id, receipt, now, availableAt, lastError, exhaustedReason);
        });
        requireLease(status != null, id);
        wakeWaiters();
        return status == Schema.STATUS_FAILED;
    }

    /** Makes a delivery a dead letter with the given reason. */
    public void fail(long id, String receipt, @Nullable String lastError, FailureReason reason,
                     @Nullable String category) {
        ensureOpen();
        boolean done = database.writeGrouped(durability,
                jdbc -> LeaseStatements.fail(jdbc, queue, id, receipt, clock.millis(), lastError, reason, category));
        requireLease(done, id);
        wakeWaiters();
    }

    /**
     * Settles many deliveries in one write transaction, each under its own fence.
     *
     * @return one result per settlement, in order
     */
    public List<Settlement.Result> settle(List<Settlement> settlements) {
        ensureOpen();
        List<Settlement.Result> results = database.write(durability, Database.WRITE_BUDGET_NANOS, ensureOpen,
                jdbc -> settleAll(jdbc, settlements, clock.millis()));
        wakeWaiters();
        return results;
    }

    /** Acknowledgements go in one batched statement; the rarer retries and dead letters one by one. */
    private List<Settlement.Result> settleAll(JdbcTemplate jdbc, List<Settlement> settlements, long now) {
        Settlement.Result[] results = new Settlement.Result[settlements.size()];
        int acks = 0;
        for (Settlement settlement : settlements) {
            if (settlement.kind() == Settlement.Kind.ACK) {
                acks++;
            }
        }
        long[] ids = new long[acks];
        String[] receipts = new String[acks];
        int[] positions = new int[acks];
        int next = 0;
        for (int i = 0; i < settlements.size(); i++) {
            Settlement settlement = settlements.get(i);
            if (settlement.kind() == Settlement.Kind.ACK) {
                ids[next] = settlement.id();
                receipts[next] = settlement.receipt();
                positions[next++] = i;
            } else {
                results[i] = settleOne(jdbc, settlement, now);
            }
        }
        if (acks > 0) {
            boolean[] matched = LeaseStatements.ackAll(jdbc, queue, ids, receipts, now);
            for (int i = 0; i < acks; i++) {
                results[positions[i]] = matched[i] ? Settlement.Result.ACKED : Settlement.Result.LEASE_LOST;
            }
        }
        return List.of(results);
    }

    private Settlement.Result settleOne(JdbcTemplate jdbc, Settlement settlement, long now) {
        long id = settlement.id();
        String receipt = settlement.receipt();
        return switch (settlement.kind()) {
            case ACK -> throw new IllegalStateException("acknowledgements are settled in one batch");
            case RETRY -> {
                Integer status = LeaseStatements.nack(jdbc, queue, id, receipt, now, null, settlement.lastError(),
                        FailureReason.RETRIES_EXHAUSTED);
                yield status == null ? Settlement.Result.LEASE_LOST
                        : status == Schema.STATUS_FAILED ? Settlement.Result.DEAD_LETTERED : Settlement.Result.RETRIED;
            }
            case DEAD_LETTER -> LeaseStatements.fail(jdbc, queue, id, receipt, now, settlement.lastError(),
                    settlement.reason() != null ? settlement.reason() : FailureReason.PERMANENT_HANDLER_ERROR, null)
                    ? Settlement.Result.DEAD_LETTERED : Settlement.Result.LEASE_LOST;
        };
    }

    /**
     * Hands back a delivery no handler started, without counting it as a delivery; false when its lease was already
     * gone.
     */
    public boolean release(long id, String receipt) {
        ensureOpen();
        boolean done = database.writeGrouped(durability,
                jdbc -> LeaseStatements.release(jdbc, queue, id, receipt, clock.millis()));
        if (done) {
            wakeWaiters();
        }
        return done;
    }

    /**
     * Renews a lease to now plus {@code leaseMillis}.
     *
     * @return the new expiry, epoch milliseconds
     */
    public long extendLease(long id, String receipt, long leaseMillis) {
        long[] leaseUntil = new long[1];
        ensureOpen();
        boolean done = database.writeGrouped(durability, jdbc -> {
            long now = clock.millis();
            leaseUntil[0] = Durations.addToTimestamp(now, leaseMillis, "duration");
            return LeaseStatements.extend(jdbc, queue, id, receipt, now, leaseUntil[0]);
        });
        requireLease(done, id);
        return leaseUntil[0];
    }

    /** Moves expired leases back to ready, or to failed when exhausted, and returns how many moved. */
    public int reclaimExpiredLeases() {
        int moved = database.write(durability, Database.WRITE_BUDGET_NANOS, ensureOpen,
                jdbc -> ClaimStatements.reclaim(jdbc, queue, clock.millis()));
        if (moved > 0) {
            wakeWaiters();
        }
        return moved;
    }

    /** Counts rows by state in one snapshot. */
    public QueueStats stats() {
        ensureOpen();
        return database.read(jdbc -> MaintenanceStatements.stats(jdbc, queue));
    }

    /** Lists dead letters by id. */
    public List<FailedRow> listFailed(int limit, int offset) {
        ensureOpen();
        return database.read(jdbc -> MaintenanceStatements.listFailed(jdbc, queue, limit, offset));
    }

    /** Moves one dead letter back to ready with a fresh budget. */
    public void retryFailed(long id) {
        database.write(durability, Database.WRITE_BUDGET_NANOS, ensureOpen, jdbc -> {
            if (!MaintenanceStatements.isFailed(jdbc, queue, id)) {
                throw new JobNotFoundException("job " + id + " is not a dead letter of queue '" + queue + "'");
            }
            if (maxPendingJobs > 0 && EnqueueStatements.isFull(jdbc, queue, maxPendingJobs)) {
                throw new QueueFullException("queue '" + queue + "' is full: maxPendingJobs is " + maxPendingJobs);
            }
            MaintenanceStatements.retryFailed(jdbc, queue, id, clock.millis());
            return null;
        });
        wakeWaiters();
    }

    /** Deletes acked (and optionally failed) rows last changed before now minus {@code olderThanMillis}. */
    public int purge(long olderThanMillis, boolean includeFailed) {
        return database.write(durability, Database.WRITE_BUDGET_NANOS, ensureOpen, jdbc -> {
            long cutoff = clock.millis() - olderThanMillis;
            int deleted = MaintenanceStatements.purge(jdbc, queue, Schema.STATUS_ACKED, cutoff);
            if (includeFailed) {
                deleted += MaintenanceStatements.purge(jdbc, queue, Schema.STATUS_FAILED, cutoff);
            }
            return deleted;
        });
    }

    /** Takes the diagnostics snapshot of this queue, reading only. */
    public QueueDiagnostics diagnostics(String serializerIdentity) {
        ensureOpen();
        return DiagnosticsStatements.collect(database, queue, serializerIdentity, delivery, durability,
                maxPendingJobs, clock);
    }

    /** Checks the whole file; a damaged or unreadable file gives a failed result, not an exception. */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        ensureOpen();
        IntegrityCheckResult result = database.checkIntegrity(mode, maxErrors);
        ensureOpen();
        return result;
    }

    /** Copies the whole file, online, into a new directory and verifies the copy. */
    public BackupResult backup(Path destination) {
        ensureOpen();
        return BackupOperation.run(database, destination);
    }

    /** Rebuilds the database file to return free pages to the filesystem. */
    public void vacuum() {
        database.writeOutsideTransaction("VACUUM", Database.WRITE_BUDGET_NANOS, ensureOpen);
    }

    /** Marks the queue closed and wakes its waiters, which then throw {@link QueueClosedException}. */
    public void close() {
        closed = true;
        wakeWaiters();
    }

    /** Tells whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Throws {@link QueueClosedException} after {@link #close()}. */
    public void ensureOpen() {
        if (closed) {
            throw new QueueClosedException("queue '" + queue + "' is closed");
        }
    }

    private void requireLease(boolean matched, long id) {
        if (!matched) {
            throw new LeaseExpiredException("lease has expired: job " + id + " of queue '" + queue
                    + "' is no longer held under this receipt");
        }
    }

    /**
     * Waits for a change to this queue, for at most {@code maxWaitMillis} and never past the deadline.
     *
     * @return false when the deadline had already passed, so the caller should give up
     */
    private boolean awaitChange(long seenVersion, Deadline deadline, long maxWaitMillis) {
        long remaining = deadline.remainingNanos();
        if (remaining == 0) {
            return false;
        }
        long wait = maxWaitMillis >= TimeUnit.NANOSECONDS.toMillis(Long.MAX_VALUE)
                ? remaining : Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(maxWaitMillis) + 1);
        try {
            database.changes().await(queue, seenVersion, wait);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LocalQueueException("interrupted while waiting on queue '" + queue + "'", interrupted);
        }
        ensureOpen();
        return true;
    }
}
