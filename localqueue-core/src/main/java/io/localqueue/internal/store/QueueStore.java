package io.localqueue.internal.store;

import io.localqueue.BackupResult;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.JobState;
import io.localqueue.QueueStats;
import io.localqueue.internal.wakeup.Wakeups;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One database holding queues, as the engine sees it: write transactions made of {@link QueueWrites transitions},
 * reads, whole-database maintenance and the wake-ups of its waiters. A store is shared by every queue on its database
 * in this JVM and is safe for concurrent use; it speaks bytes and epoch milliseconds, never payload types, and
 * reports failures as {@link io.localqueue.LocalQueueException} with the database's own words.
 *
 * <p>A store for another SQL engine implements this interface beside the SQLite one; the engine and the public API
 * do not change.
 */
public interface QueueStore extends AutoCloseable {

    /**
     * Runs transitions in one write transaction and returns what {@code work} returned once it committed. A store
     * may run {@code work} again from the start while another writer holds the database, so {@code work} must only
     * call transitions and compute.
     *
     * @param options how durable the commit is and how long to wait for other writers
     * @param ensureOpen throws when the caller was closed; checked before every attempt
     * @param work the transitions
     * @param <R> the result type
     * @return the result, after the commit
     * @throws io.localqueue.DatabaseBusyException when other writers kept the database for longer than allowed
     */
    <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work);

    /**
     * Runs transitions on a connection of the caller's to this database, inside the transaction the caller holds
     * open on it and commits or rolls back itself: one attempt, which waits for other writers only as the
     * connection's own settings make it wait, and wakes no waiter (the caller signals {@link #wakeups()} once its
     * transaction committed).
     *
     * @param connection the caller's connection, with auto-commit off
     * @param work the transitions
     * @param <R> the result type
     * @return the result, before the caller's commit
     * @throws IllegalArgumentException when the connection does not reach this database or is not in a transaction
     */
    <R> R writeWithin(Connection connection, StoreWork<R> work);

    /**
     * Tells, reading only, whether an event-bus execution may still have work: its source is not read to the end,
     * or one of its deliveries is ready or leased.
     *
     * @param executionId the execution
     * @return true while it may
     */
    boolean executionPending(String executionId);

    /**
     * Lists, reading only, every event-bus execution of a bus the database stores, oldest first, without counting
     * their deliveries; empty when the database has no execution tables.
     *
     * @param bus the bus's name
     * @return the executions
     */
    List<ExecutionRow> executions(String bus);

    /**
     * Returns this process's turn to make blocking claims from a queue; the same object for every call with one queue.
     *
     * @param queue the queue
     * @return the turn; {@link ClaimTurn#ALWAYS} for a store whose claims need no order
     */
    default ClaimTurn claimTurn(String queue) {
        return ClaimTurn.ALWAYS;
    }

    /**
     * Reads which holders the queue's leases name (through {@link Receipts}) and returns those known to have ended:
     * the processes, on this machine or another host, that claimed them and closed their store or died since. This
     * process's own holder never ends while the store is open, and a receipt that names no holder (the Python
     * library's, this library's older ones) is never returned: such a lease ends with its time alone.
     *
     * @param queue the queue
     * @return holder names whose leases {@link QueueWrites#reclaimAbandoned} may take back; empty for a store that
     *         cannot tell
     */
    default List<String> endedHolders(String queue) {
        return List.of();
    }

    /**
     * Reads when a queue next has something to claim, without taking the write lock.
     *
     * @param queue the queue
     * @return the earliest due job and the earliest lease end; {@link ClaimProbe#PAUSED} for a paused queue
     */
    ClaimProbe probe(String queue);

    /**
     * Reads whether the queue is paused for every process, and since when and by whom.
     *
     * @param queue the queue
     * @return the pause, or null when the queue runs
     */
    @Nullable QueuePause pause(String queue);

    /**
     * Reads the limits stored as the queue's.
     *
     * @param queue the queue
     * @return the limits, {@link QueueLimits#NONE} for none
     */
    QueueLimits limits(String queue);

    /**
     * Reads whether a queue holds {@code limit} pending jobs (ready or leased) or more, counting no further than
     * that, so the read costs O(limit) whatever the backlog.
     *
     * @param queue the queue
     * @param limit the pending-job limit, positive
     * @return true when the queue has no room for one more job
     */
    boolean isFull(String queue, long limit);

    /**
     * Counts a queue's jobs by state in one read.
     *
     * @param queue the queue
     * @return the counts
     */
    QueueStats stats(String queue);

    /**
     * Lists a queue's dead letters in id order.
     *
     * @param queue the queue
     * @param limit how many at most
     * @param offset how many to skip
     * @return the rows
     */
    List<FailedRow> listFailed(String queue, int limit, int offset);

    /**
     * Lists a queue's ready jobs, delayed ones included, in claim order (due time, then id), without claiming any.
     *
     * @param queue the queue
     * @param limit how many at most
     * @param offset how many to skip
     * @return the rows
     */
    List<ReadyRow> listReady(String queue, int limit, int offset);

    /**
     * Lists one page of a queue's jobs in one state after a cursor, reading only, in the request's order, walking an
     * index from the cursor and stopping at the page's end.
     *
     * @param request the queue, state, cursor and size
     * @return the rows, each with its headers
     */
    List<JobRow> listJobs(JobPageRequest request);

    /**
     * Reads one job of a queue by id, in any status, with its headers.
     *
     * @param queue the queue
     * @param id the job's id
     * @return the row, or null when the queue holds no job of that id
     */
    @Nullable JobRow job(String queue, long id);

    /**
     * Reads a queue's jobs whose ids lie in {@code (afterId, throughId]}, in id order, in any status, with their headers,
     * reading only; the walk goes by id, so it costs the rows of every queue put in the range.
     *
     * @param queue the queue
     * @param afterId the range's exclusive start
     * @param throughId the range's inclusive end
     * @param limit how many at most
     * @return the rows
     */
    List<JobRow> jobsPut(String queue, long afterId, long throughId, int limit);

    /**
     * Reads those of a queue's jobs whose ids are given, in id order, in any status, with their headers, reading only.
     *
     * @param queue the queue
     * @param ids the ids, at most a page's worth
     * @return the rows found; ids of other queues or of no job are left out
     */
    List<JobRow> jobs(String queue, long[] ids);

    /**
     * Reads the highest id a job of any queue holds, reading only.
     *
     * @return the id, 0 when there is no job
     */
    long lastJobId();

    /**
     * Counts a queue's jobs in one state, stepping through no more than {@code cap} of them.
     *
     * @param queue the queue
     * @param state the state
     * @param now the queue's clock, epoch milliseconds: what divides due from delayed
     * @param cap the most to count, 1 or more
     * @return the count, {@code cap} when there are at least as many
     */
    long countJobs(String queue, JobState state, long now, long cap);

    /**
     * Takes the snapshot behind a queue's diagnostics from one consistent read, never writing: one exact count of the
     * queue's jobs by state, and otherwise only reads whose cost does not grow with the backlog.
     *
     * @param queue the queue
     * @param clock the clock that ages are measured against, read after the snapshot began
     * @return the snapshot
     */
    QueueSnapshot snapshot(String queue, Clock clock);

    /**
     * Reads the stored recurring jobs, in id order, each with the status of the job its last tick enqueued.
     *
     * @return the recurring jobs, empty for none
     */
    List<RecurringRow> recurringJobs();

    /**
     * Lists the distinct names of queues holding at least one job, in name order.
     *
     * @return the names
     */
    List<String> queueNames();

    /**
     * Checks the whole database; a damaged or unreadable one gives a failed result, never an exception.
     *
     * @param mode how thoroughly
     * @param maxErrors how many findings to report at most, already validated
     * @return the result
     */
    IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors);

    /**
     * Copies the whole database, while others keep working, into a new directory and verifies the copy.
     *
     * @param destination a directory that must not exist yet
     * @return what was copied
     */
    BackupResult backup(Path destination);

    /**
     * Gives free space back to the filesystem, waiting for other writers like a write.
     *
     * @param ensureOpen throws when the caller was closed
     */
    void vacuum(Runnable ensureOpen);

    /**
     * Returns the wake-ups of this database's waiters: commits made here signal them directly, and the store
     * watches for commits of other processes while anyone waits.
     *
     * @return the wake-ups
     */
    Wakeups wakeups();

    /**
     * Describes where the data lives, for messages: a file, or a server and schema.
     *
     * @return the description
     */
    String location();

    /**
     * Names the database engine, for messages.
     *
     * @return such as "SQLite"
     */
    String engine();

    /**
     * Returns the database engine's version, such as SQLite's "3.54.1".
     *
     * @return the version
     */
    String engineVersion();

    /** Closes every connection and stops watching; nothing may be called afterwards. */
    @Override
    void close();
}
