package io.localqueue.internal.engine;

import io.localqueue.BackupResult;
import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.FailureReason;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.JobNotFoundException;
import io.localqueue.JobOutcome;
import io.localqueue.LeaseExpiredException;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueFullException;
import io.localqueue.QueueLimit;
import io.localqueue.QueueStats;
import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.QueuePause;
import io.localqueue.internal.store.ClaimHold;
import io.localqueue.internal.store.LimitChanges;
import io.localqueue.internal.store.QueueLimits;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueProfile;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.time.Deadline;
import io.localqueue.internal.time.Durations;
import io.localqueue.internal.wakeup.Wakeups;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One logical queue over a shared {@link Database}, working in bytes: claims that wait ({@link Claims}), enqueue with
 * backpressure, fenced settlements through the database's {@link GroupCommit}, lease reclaim and maintenance. Each
 * operation is one transition of the {@link QueueStore}; the typed public facades sit on top. It is the queue's
 * whole surface below the API, one short, documented method per operation, which is most of its length.
 */
public final class QueueEngine {

    private final Database database;
    private final QueueStore store;
    private final GroupCommit groupCommit;
    private final ProducerGroup producers;
    private final SnapshotCache snapshots;
    private final Wakeups wakeups;
    private final String queue;
    private final DeliveryPolicy delivery;
    private final DurabilityMode durability;
    private final long maxPendingJobs;
    private final Clock clock;
    private final EnqueueInto enqueueInto;
    private final Runnable ensureOpen = this::ensureOpen;
    private final ChangeWaits waits;
    private final Claims claims;
    private final LeaseExpiries leaseExpiries;
    private volatile boolean closed;
    private Retention.@Nullable Registration retention;

    /**
     * Creates the engine; the caller keeps ownership of the database reference.
     *
     * @param database the shared database
     * @param queue the queue name
     * @param delivery the lease and retry budget of new jobs and claims
     * @param durability how this queue's commits reach the disk
     * @param maxPendingJobs the pending-job limit, or 0 for none
     * @param clock stamps rows and decides lease expiry
     */
    public QueueEngine(Database database, String queue, DeliveryPolicy delivery, DurabilityMode durability,
                       long maxPendingJobs, Clock clock) {
        this(database, queue, delivery, durability, maxPendingJobs, clock, 0);
    }

    /**
     * Creates an engine whose claims write a delivery budget of their own onto every job they lease (and onto
     * expired leases they reclaim), failing a due job whose claims already reached it instead of leasing it: an
     * event-bus subscription's retry policy.
     *
     * @param database the shared database
     * @param queue the queue name
     * @param delivery the lease and retry budget of new jobs
     * @param durability how this queue's commits reach the disk
     * @param maxPendingJobs the pending-job limit, or 0 for none
     * @param clock stamps rows and decides lease expiry
     * @param claimBudget the budget claims write, or 0 to keep each job's own
     */
    public QueueEngine(Database database, String queue, DeliveryPolicy delivery, DurabilityMode durability,
                       long maxPendingJobs, Clock clock, int claimBudget) {
        this.database = database;
        this.store = database.store();
        this.groupCommit = database.groupCommit();
        this.producers = database.producers();
        this.snapshots = database.snapshots();
        this.wakeups = store.wakeups();
        this.queue = queue;
        this.delivery = delivery;
        this.durability = durability;
        this.maxPendingJobs = maxPendingJobs;
        this.clock = clock;
        this.enqueueInto = new EnqueueInto(queue, delivery.maxAttempts(), clock, maxPendingJobs);
        this.waits = new ChangeWaits(queue, wakeups, ensureOpen);
        this.leaseExpiries = new LeaseExpiries(queue);
        this.claims = new Claims(store, queue, delivery.lease().toMillis(), durability, clock, waits, ensureOpen,
                this::reclaimed, this::abandoned, claimBudget);
    }

    /**
     * Returns the name of the queue, as its rows carry it.
     *
     * @return the queue's name
     */
    public String queueName() {
        return queue;
    }

    /**
     * Returns the time on this queue's clock.
     *
     * @return epoch milliseconds
     */
    public long now() {
        return clock.millis();
    }

    /**
     * Inserts all jobs in one transaction, shared with the puts other threads make at the same moment
     * ({@link ProducerGroup}), waiting up to {@code timeoutNanos} for room when a limit is set.
     *
     * @param jobs the jobs in input order
     * @param timeoutNanos how long to wait for room
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
            long seen = waits.version();
            ensureOpen();
            Enqueued outcome = producers.put(enqueueInto, jobs, durability);
            List<Long> ids = outcome.ids();
            if (ids != null) {
                wakeWaiters();
                return ids;
            }
            if (outcome.impossible() || !waits.awaitChange(seen, deadline, Long.MAX_VALUE)) {
                throw full(outcome);
            }
        }
    }

    /**
     * Inserts all jobs through a connection of the caller's, inside the transaction the caller holds open on it, in
     * one attempt that never waits for room; waiters are not woken, since nothing is committed yet.
     *
     * @param connection the caller's connection to this queue's database, with auto-commit off
     * @param jobs the jobs in input order
     * @return the ids in input order, the jobs' once the caller commits
     * @throws QueueFullException at once when the jobs do not fit
     * @throws IllegalArgumentException when the connection does not reach this database or is not in a transaction
     */
    public List<Long> putWithin(Connection connection, List<NewJob> jobs) {
        ensureOpen();
        if (jobs.isEmpty()) {
            return List.of();
        }
        Enqueued outcome = store.writeWithin(connection, writes -> enqueueInto.run(writes, jobs));
        List<Long> ids = outcome.ids();
        if (ids == null) {
            throw full(outcome);
        }
        return ids;
    }

    /** The exception of an enqueue that found no room: at once for a batch that can never fit. */
    private QueueFullException full(Enqueued outcome) {
        if (outcome.impossible()) {
            return new QueueFullException("queue '" + queue + "' is full: the batch adds " + outcome.newRows()
                    + " jobs but maxPendingJobs is " + maxPendingJobs);
        }
        return new QueueFullException("queue '" + queue + "' is full: maxPendingJobs is " + maxPendingJobs);
    }

    /**
     * Claims the first due job, waiting up to {@code timeoutNanos} for one; zero makes one attempt that never waits
     * for another writer's lock.
     *
     * @param timeoutNanos how long to wait
     * @return the leased row
     * @throws QueueEmptyException when no job could be claimed in time (saying so when the queue is paused)
     */
    public ClaimedRow claim(long timeoutNanos) {
        List<ClaimedRow> rows = claims.claim(timeoutNanos, 1, () -> false);
        if (rows.isEmpty()) {
            throw new QueueEmptyException("queue '" + queue + "' " + whyNothingClaimed());
        }
        return rows.get(0);
    }

    /**
     * Claims up to {@code limit} due jobs in one transaction, in claim order, waiting up to {@code timeoutNanos} for
     * at least one; returns an empty list when the timeout passes or {@code cancelled} turns true, and
     * {@link #wakeWaiters()} makes a waiting call look at it at once.
     *
     * @param timeoutNanos how long to wait; zero makes one attempt that never waits for another writer's lock
     * @param limit how many jobs at most
     * @param cancelled ends the wait when it turns true
     * @return the leased rows in claim order, possibly none
     */
    public List<ClaimedRow> claim(long timeoutNanos, int limit, BooleanSupplier cancelled) {
        return claims.claim(timeoutNanos, limit, cancelled);
    }

    /** Wakes this JVM's threads waiting on this queue, so they re-check their queue and cancellation. */
    public void wakeWaiters() {
        wakeups.signal(queue);
    }

    /**
     * Acknowledges a delivery, returning once the acknowledgement committed.
     *
     * @param id the message id
     * @param receipt the delivery's receipt
     * @throws LeaseExpiredException when the lease is gone
     */
    public void ack(long id, String receipt) {
        settle(Settlement.ack(queue, id, receipt, now()), id);
    }

    /**
     * Returns a delivery to the queue after {@code delayMillis}, or makes it a dead letter when its budget is spent.
     *
     * @param id the message id
     * @param receipt the delivery's receipt
     * @param delayMillis how long the job stays invisible
     * @param lastError the diagnostic kept with the job, or null
     * @param exhaustedReason the reason stored when the budget is spent
     * @return true when the job became a dead letter
     * @throws LeaseExpiredException when the lease is gone
     */
    public boolean nack(long id, String receipt, long delayMillis, @Nullable String lastError,
                        FailureReason exhaustedReason) {
        long now = now();
        Long availableAt = delayMillis == 0 ? null : Durations.addToTimestamp(now, delayMillis, "delay");
        return settle(Settlement.retry(queue, id, receipt, now, availableAt, lastError, exhaustedReason), id)
                == JobOutcome.DEAD_LETTERED;
    }

    /**
     * Makes a delivery a dead letter with the given reason.
     *
     * @param id the message id
     * @param receipt the delivery's receipt
     * @param lastError the diagnostic, or null
     * @param reason why
     * @param category the failure category, or null
     * @throws LeaseExpiredException when the lease is gone
     */
    public void fail(long id, String receipt, @Nullable String lastError, FailureReason reason,
                     @Nullable String category) {
        settle(Settlement.deadLetter(queue, id, receipt, now(), lastError, reason, category), id);
    }

    /**
     * Hands a worker's settlement over without waiting for its commit; {@code done} hears the outcome afterwards, on
     * another thread.
     *
     * @param kind the transition; {@link Settlement.Kind#RETRY} keeps the job's place in line
     * @param id the message id
     * @param receipt the delivery's receipt
     * @param lastError the diagnostic of a retry or dead letter, or null
     * @param reason why a dead letter failed, or the reason stored once a retry spends the budget; null only for
     *               an acknowledgement
     * @param delayMillis how long a retried job stays invisible; zero keeps its place in line
     * @param leaseUntil when the delivery's lease ends, epoch milliseconds: a failed transaction is tried again
     *                   until then
     * @param done told the outcome, or the failure that made it give up
     */
    public void settleLater(Settlement.Kind kind, long id, String receipt, @Nullable String lastError,
                            @Nullable FailureReason reason, long delayMillis, long leaseUntil, Settled done) {
        settleLater(kind, id, receipt, lastError, reason, null, delayMillis, leaseUntil, done);
    }

    /**
     * Hands a settlement over without waiting for its commit, with the failure category a dead letter keeps.
     *
     * @param kind the transition; {@link Settlement.Kind#RETRY} keeps the job's place in line
     * @param id the message id
     * @param receipt the delivery's receipt
     * @param lastError the diagnostic of a retry or dead letter, or null
     * @param reason why a dead letter failed, or the reason stored once a retry spends the budget; null only for
     *               an acknowledgement
     * @param category the failure category of a dead letter, or null
     * @param delayMillis how long a retried job stays invisible; zero keeps its place in line
     * @param leaseUntil when the delivery's lease ends, epoch milliseconds: a failed transaction is tried again
     *                   until then
     * @param done told the outcome, or the failure that made it give up
     */
    public void settleLater(Settlement.Kind kind, long id, String receipt, @Nullable String lastError,
                            @Nullable FailureReason reason, @Nullable String category, long delayMillis,
                            long leaseUntil, Settled done) {
        ensureOpen();
        long now = now();
        Long availableAt = delayMillis == 0 ? null : Durations.addToTimestamp(now, delayMillis, "delay");
        handOver(new Settlement(queue, id, receipt, kind, now, availableAt, lastError, reason, category), leaseUntil,
                null, done);
    }

    /**
     * Hands over the acknowledgement of a delivery with writes that commit only with it (a handler's emitted events),
     * without waiting for the commit; {@code done} hears {@link JobOutcome#ACKED} once both committed,
     * {@link JobOutcome#DISCARDED} when the lease was gone and nothing was written, or the failure: a failure of
     * {@code with}'s own statements rolls the acknowledgement back too and reaches {@code done} as it was thrown.
     *
     * @param id the message id
     * @param receipt the delivery's receipt
     * @param leaseUntil when the delivery's lease ends, epoch milliseconds: a failed transaction is tried again
     *                   until then
     * @param with the writes, run in the acknowledgement's transaction once it took
     * @param done told the outcome, or the failure
     */
    public void acknowledgeLater(long id, String receipt, long leaseUntil, StoreWork<?> with, Settled done) {
        ensureOpen();
        handOver(Settlement.ack(queue, id, receipt, now()), leaseUntil, with, done);
    }

    private void handOver(Settlement settlement, long leaseUntil, @Nullable StoreWork<?> with, Settled done) {
        groupCommit.settleLater(settlement, durability, clock, leaseUntil, with, (outcome, failure) -> {
            if (outcome != null && outcome != JobOutcome.DISCARDED) {
                wakeWaiters();
            }
            done.settled(outcome, failure);
        });
    }

    /** Commits every settlement handed over without waiting so far; their outcomes have been reported afterwards. */
    public void flushSettlements() {
        groupCommit.flush();
    }

    /**
     * Hands back a delivery no handler started, without counting it as a delivery.
     *
     * @param id the message id
     * @param receipt the delivery's receipt
     * @return false when its lease was already gone
     */
    public boolean release(long id, String receipt) {
        ensureOpen();
        JobOutcome outcome = groupCommit.settle(Settlement.release(queue, id, receipt, now()), durability);
        if (outcome == JobOutcome.DISCARDED) {
            return false;
        }
        wakeWaiters();
        return true;
    }

    /**
     * Renews a lease to now plus {@code leaseMillis}.
     *
     * @param id the message id
     * @param receipt the delivery's receipt
     * @param leaseMillis the new lease length, already validated
     * @return the new expiry, epoch milliseconds
     * @throws LeaseExpiredException when the lease is gone
     */
    public long extendLease(long id, String receipt, long leaseMillis) {
        ensureOpen();
        long now = now();
        long leaseUntil = Durations.addToTimestamp(now, leaseMillis, "duration");
        requireLease(groupCommit.renew(new Renewal(queue, id, receipt, now, leaseUntil), durability), id);
        return leaseUntil;
    }

    /**
     * Moves expired leases back to ready, or to failed when exhausted.
     *
     * @return how many moved
     */
    public int reclaimExpiredLeases() {
        List<ExpiredLease> moved = store.write(WriteOptions.standard("reclaim", durability), ensureOpen,
                writes -> writes.reclaimExpired(queue, clock.millis()));
        if (!moved.isEmpty()) {
            reclaimed(moved);
        }
        return moved.size();
    }

    /**
     * Returns what tells of this queue's expired leases, to listen to it.
     *
     * @return the queue's lease expiries
     */
    public LeaseExpiries leaseExpiries() {
        return leaseExpiries;
    }

    /** Wakes callers waiting for the jobs that are ready again, and tells of each lease of an ended process. */
    private void abandoned(List<ExpiredLease> taken) {
        wakeWaiters();
        leaseExpiries.report(taken, true);
    }

    /** Wakes callers waiting for the jobs that are ready again, and tells of each expired lease. */
    private void reclaimed(List<ExpiredLease> expired) {
        wakeWaiters();
        leaseExpiries.report(expired, false);
    }

    /**
     * Reads whether the queue is at its pending-job limit, reserving nothing.
     *
     * @return true when a limit is set and the queue holds that many ready and leased jobs
     */
    public boolean isFull() {
        ensureOpen();
        return maxPendingJobs > 0 && store.isFull(queue, maxPendingJobs);
    }

    /**
     * Counts rows by state.
     *
     * @return the counts
     */
    public QueueStats stats() {
        ensureOpen();
        return store.stats(queue);
    }

    /**
     * Returns the counts of the queue's last snapshot, shared by every queue object of it on this database; see
     * {@link SnapshotCache} for when it is recounted.
     *
     * @param maxAgeMillis how old the snapshot may be before a recount starts in the background; positive
     * @return the counts
     */
    public QueueStats stats(long maxAgeMillis) {
        ensureOpen();
        return snapshots.recent(queue, clock, maxAgeMillis).stats();
    }

    /**
     * Lists dead letters by id.
     *
     * @param limit how many at most
     * @param offset how many to skip
     * @return the rows
     */
    public List<FailedRow> listFailed(int limit, int offset) {
        ensureOpen();
        return store.listFailed(queue, limit, offset);
    }

    /**
     * Lists ready jobs, delayed ones included, in claim order, claiming none.
     *
     * @param limit how many at most
     * @param offset how many to skip
     * @return the rows
     */
    public List<ReadyRow> listReady(int limit, int offset) {
        ensureOpen();
        return store.listReady(queue, limit, offset);
    }

    /**
     * Moves one dead letter back to ready with a fresh budget.
     *
     * @param id the dead letter's id
     * @throws JobNotFoundException when it is not a dead letter of this queue
     * @throws QueueFullException when the queue is at its limit
     */
    public void retryFailed(long id) {
        DeadLetterRetry retry = store.write(WriteOptions.standard("retry-failed", durability), ensureOpen,
                writes -> writes.retryFailed(queue, id, clock.millis(), maxPendingJobs));
        switch (retry) {
            case NOT_A_DEAD_LETTER ->
                    throw new JobNotFoundException("job " + id + " is not a dead letter of queue '" + queue + "'");
            case QUEUE_FULL ->
                    throw new QueueFullException("queue '" + queue + "' is full: maxPendingJobs is " + maxPendingJobs);
            case RETRIED -> wakeWaiters();
        }
    }

    /**
     * Moves a waiting job's due time, to now when {@code runAtMillis} has passed, and wakes this JVM's waiters, which
     * look for the new earliest due time.
     *
     * @param id the job's id
     * @param runAtMillis the new due time, epoch milliseconds
     * @return true when the job was waiting and was moved
     */
    public boolean reschedule(long id, long runAtMillis) {
        boolean moved = store.write(WriteOptions.standard("reschedule", durability), ensureOpen, writes -> {
            long now = clock.millis();
            return writes.reschedule(queue, id, Math.max(now, runAtMillis), now);
        });
        if (moved) {
            wakeWaiters();
        }
        return moved;
    }

    /**
     * Pauses the queue for every process on the store, recording this process ({@code pid@host}) as who paused it;
     * this process's cached figures are taken again, so its next cached read shows the pause.
     *
     * @return true when it was running
     */
    public boolean pause() {
        String by = ProcessHandle.current().pid() + "@" + hostName();
        boolean paused = store.write(WriteOptions.standard("pause", durability), ensureOpen,
                writes -> writes.pause(queue, by, clock.millis()));
        if (paused) {
            snapshots.take(queue, clock);
        }
        return paused;
    }

    /** The host's name as the environment gives it, without a lookup that could wait for DNS. */
    private static String hostName() {
        for (String variable : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String name = System.getenv(variable);
            if (name != null && !name.isBlank()) {
                return name;
            }
        }
        return "localhost";
    }

    /**
     * Lets every process claim from the queue again, and wakes this process's waiting consumers at once (other
     * processes' wake at the commit, as they do for a put); this process's cached figures are taken again.
     *
     * @return true when it was paused
     */
    public boolean resume() {
        boolean resumed = store.write(WriteOptions.standard("resume", durability), ensureOpen,
                writes -> writes.resume(queue));
        if (resumed) {
            wakeWaiters();
            snapshots.take(queue, clock);
        }
        return resumed;
    }

    /** Says why a claim came back empty-handed, from what its last read and claim saw. */
    private String whyNothingClaimed() {
        if (claims.pausedAtLastLook()) {
            return "is paused for every process (resume() lets claims run)";
        }
        ClaimHold hold = claims.lastHold();
        if (hold == null) {
            return "is empty";
        }
        return switch (hold.limit()) {
            case MAX_CONCURRENT -> "holds its due jobs back: maxConcurrent jobs are running";
            case MAX_CONCURRENT_PER_KEY ->
                    "holds its due jobs back: the concurrency key of each has maxConcurrentPerKey jobs running";
            case RATE_LIMIT -> "holds its due jobs back: the rate limit's permits for this period are spent";
        };
    }

    /**
     * Stores the limits this queue object was built with as the queue's, for every process on the store, and wakes
     * this process's waiting consumers, since a raised limit may let them claim.
     *
     * @param changes the limits; nothing is written when it holds none
     */
    public void storeLimits(LimitChanges changes) {
        if (!changes.any()) {
            return;
        }
        store.write(WriteOptions.standard("limits", durability), ensureOpen,
                writes -> {
                    writes.setLimits(queue, changes);
                    return null;
                });
        wakeWaiters();
    }

    /**
     * Reads the limits stored as the queue's, which every process obeys.
     *
     * @return the limits, {@link QueueLimits#NONE} for none
     */
    public QueueLimits limits() {
        ensureOpen();
        return store.limits(queue);
    }

    /**
     * Counts the claims of this queue object that a limit held back.
     *
     * @param control the limit
     * @return how many since it opened
     */
    public long claimsHeld(QueueLimit control) {
        return claims.holds(control);
    }

    /**
     * Reads the queue's pause.
     *
     * @return the pause, or null while the queue runs
     */
    public @Nullable QueuePause pauseState() {
        ensureOpen();
        return store.pause(queue);
    }

    /**
     * Deletes a waiting job.
     *
     * @param id the job's id
     * @return true when the job was waiting and is gone
     */
    public boolean cancel(long id) {
        return store.write(WriteOptions.standard("cancel", durability), ensureOpen,
                writes -> writes.cancel(queue, id));
    }

    /**
     * Deletes a dead letter.
     *
     * @param id the dead letter's id
     * @return true when it was a dead letter of this queue and is gone
     */
    public boolean deleteFailed(long id) {
        return store.write(WriteOptions.standard("delete-failed", durability), ensureOpen,
                writes -> writes.deleteFailed(queue, id));
    }

    /**
     * Lists one page of the queue's jobs in one state, reading only.
     *
     * @param state the state
     * @param after where the previous page ended, or null
     * @param limit how many at most
     * @return the rows
     */
    public List<JobRow> listJobs(JobState state, @Nullable JobCursor after, int limit) {
        ensureOpen();
        return store.listJobs(new JobPageRequest(queue, state, clock.millis(), after, limit));
    }

    /**
     * Reads one job of the queue by id.
     *
     * @param id the job's id
     * @return the row, or null when the queue holds none of that id
     */
    public @Nullable JobRow job(long id) {
        ensureOpen();
        return store.job(queue, id);
    }

    /**
     * Reads the queue's jobs put in a range of ids.
     *
     * @param afterId the range's exclusive start
     * @param throughId the range's inclusive end
     * @param limit how many at most
     * @return the rows in id order
     */
    public List<JobRow> jobsPut(long afterId, long throughId, int limit) {
        ensureOpen();
        return store.jobsPut(queue, afterId, throughId, limit);
    }

    /**
     * Reads the queue's jobs among some ids.
     *
     * @param ids the ids
     * @return the rows found, in id order
     */
    public List<JobRow> jobs(long[] ids) {
        ensureOpen();
        return store.jobs(queue, ids);
    }

    /**
     * Counts the queue's jobs in one state up to a cap.
     *
     * @param state the state
     * @param cap the most to count
     * @return the count, at most {@code cap}
     */
    public long countJobs(JobState state, long cap) {
        ensureOpen();
        return store.countJobs(queue, state, clock.millis(), cap);
    }

    /**
     * Deletes acked (and optionally failed) rows last changed before now minus {@code olderThanMillis}.
     *
     * @param olderThanMillis the minimum age
     * @param includeFailed whether dead letters go too
     * @return how many rows were deleted
     */
    public int purge(long olderThanMillis, boolean includeFailed) {
        return store.write(WriteOptions.standard("purge", durability), ensureOpen,
                writes -> writes.purge(queue, clock.millis() - olderThanMillis, includeFailed));
    }

    /**
     * Takes the diagnostics snapshot of this queue, reading only, and keeps it for the cached reads.
     *
     * @param serializerIdentity the payload format of the queue object asking
     * @return the snapshot
     */
    public QueueDiagnostics diagnostics(String serializerIdentity) {
        ensureOpen();
        return snapshots.take(queue, clock).describe(profile(serializerIdentity));
    }

    /**
     * Describes the queue's last snapshot, shared by every queue object of it on this database, with this queue
     * object's settings; see {@link SnapshotCache} for when it is recounted.
     *
     * @param serializerIdentity the payload format of the queue object asking
     * @param maxAgeMillis how old the snapshot may be before a recount starts in the background; positive
     * @return the diagnostics, whose {@code observedAt} says when the snapshot was taken
     */
    public QueueDiagnostics diagnostics(String serializerIdentity, long maxAgeMillis) {
        ensureOpen();
        return snapshots.recent(queue, clock, maxAgeMillis).describe(profile(serializerIdentity));
    }

    private QueueProfile profile(String serializerIdentity) {
        return new QueueProfile(queue, serializerIdentity, delivery, durability, maxPendingJobs);
    }

    /**
     * Checks the whole database; a damaged or unreadable one gives a failed result, not an exception.
     *
     * @param mode how thoroughly
     * @param maxErrors how many findings at most, 1 to {@value Database#MAX_INTEGRITY_ERRORS}
     * @return the result
     */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        ensureOpen();
        IntegrityCheckResult result = database.checkIntegrity(mode, maxErrors);
        ensureOpen();
        return result;
    }

    /**
     * Copies the whole database, online, into a new directory and verifies the copy.
     *
     * @param destination a directory that must not exist yet
     * @return what was copied
     */
    public BackupResult backup(Path destination) {
        ensureOpen();
        return store.backup(destination);
    }

    /** Gives the database's free pages back to the filesystem. */
    public void vacuum() {
        ensureOpen();
        store.vacuum(ensureOpen);
    }

    /** Marks the queue closed and wakes its waiters, which then throw {@link QueueClosedException}. */
    public void close() {
        closed = true;
        Retention.Registration kept = retention;
        if (kept != null) {
            kept.close();
        }
        wakeWaiters();
    }

    /**
     * Deletes this queue's finished rows in the background as {@code policy} says, until the engine closes; with
     * other queue objects of the queue open in this JVM, the longest of their policies applies.
     *
     * @param policy how long finished rows are kept
     */
    public void keepFinished(RetentionPolicy policy) {
        keepFinished(policy, () -> { });
    }

    /**
     * Deletes this queue's finished rows as {@link #keepFinished(RetentionPolicy)} does, running {@code first} in each
     * turn before them.
     *
     * @param policy how long finished rows are kept
     * @param first deletions that free rows first, such as an event bus's completed executions
     */
    public void keepFinished(RetentionPolicy policy, Runnable first) {
        ensureOpen();
        if (retention != null) {
            throw new IllegalStateException("queue '" + queue + "' already has its retention");
        }
        retention = database.retention().register(queue, policy, clock, durability, first);
    }

    /**
     * Runs this queue's retention now on the caller's thread, unless another process has its turn.
     *
     * @return how many rows were deleted, or -1 when another process had the turn or the queue keeps its rows
     */
    public long runRetention() {
        ensureOpen();
        return database.retention().runNow(queue);
    }

    /**
     * Throws {@link QueueClosedException} after {@link #close()}.
     *
     * @throws QueueClosedException when closed
     */
    public void ensureOpen() {
        if (closed) {
            throw new QueueClosedException("queue '" + queue + "' is closed");
        }
    }

    private JobOutcome settle(Settlement settlement, long id) {
        ensureOpen();
        JobOutcome outcome = groupCommit.settle(settlement, durability);
        requireLease(outcome != JobOutcome.DISCARDED, id);
        wakeWaiters();
        return outcome;
    }

    private void requireLease(boolean matched, long id) {
        if (!matched) {
            throw new LeaseExpiredException("lease has expired: job " + id + " of queue '" + queue
                    + "' is no longer held under this receipt");
        }
    }
}
