package io.localqueue.spring;

import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What became of the jobs of one {@code LocalQueueTemplate.enqueue…} call: written at once, or deferred to the
 * commit of the Spring-managed transaction the call ran in. A deferred result has no ids until that commit: it
 * never makes one up. It changes once, on the thread that commits (or rolls back), so after a
 * {@code @Transactional} method returns its caller reads the final status.
 *
 * @since 0.1.0
 */
public final class EnqueueResult {

    /**
     * Where the jobs are.
     *
     * @since 0.1.0
     */
    public enum Status {
        /** The jobs are in the queue; {@link #ids()} holds their ids. */
        WRITTEN,
        /** The jobs wait for the transaction to commit; they have no ids yet. */
        AWAITING_COMMIT,
        /** The transaction, or the savepoint the jobs were enqueued after, rolled back: they were never written. */
        ROLLED_BACK,
        /** The transaction committed but writing the jobs afterwards failed: they are lost ({@link #failure()}). */
        FAILED
    }

    private final String queue;
    private final int jobCount;
    private final boolean deferred;
    private volatile Status status;
    private volatile List<Long> ids = List.of();
    private volatile @Nullable RuntimeException failure;

    private EnqueueResult(String queue, int jobCount, boolean deferred, Status status) {
        this.queue = queue;
        this.jobCount = jobCount;
        this.deferred = deferred;
        this.status = status;
    }

    /** The result of jobs written at once. */
    static EnqueueResult written(String queue, List<Long> ids) {
        EnqueueResult result = new EnqueueResult(queue, ids.size(), false, Status.WRITTEN);
        result.ids = List.copyOf(ids);
        return result;
    }

    /** The result of jobs that wait for the current transaction to commit. */
    static EnqueueResult awaitingCommit(String queue, int jobCount) {
        return new EnqueueResult(queue, jobCount, true, Status.AWAITING_COMMIT);
    }

    /** Records the ids of deferred jobs written after the commit. */
    void markWritten(List<Long> writtenIds) {
        ids = List.copyOf(writtenIds);
        status = Status.WRITTEN;
    }

    /** Records that the deferred jobs were dropped with their transaction or savepoint. */
    void markRolledBack() {
        status = Status.ROLLED_BACK;
    }

    /** Records that writing the deferred jobs after the commit failed. */
    void markFailed(RuntimeException cause) {
        failure = cause;
        status = Status.FAILED;
    }

    /**
     * Returns the queue the jobs were enqueued on.
     *
     * @return the queue name
     */
    public String queue() {
        return queue;
    }

    /**
     * Returns how many jobs the call enqueued, duplicates of one job id counted each time.
     *
     * @return the number of items given
     */
    public int jobCount() {
        return jobCount;
    }

    /**
     * Tells whether the write waits, or waited, for a transaction to commit rather than happening in the call.
     *
     * @return true for a deferred write, whatever its status now
     */
    public boolean isDeferred() {
        return deferred;
    }

    /**
     * Returns where the jobs are now; only a deferred result is ever other than {@link Status#WRITTEN}.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }

    /**
     * Returns the jobs' ids in input order once they are {@link Status#WRITTEN}, and an empty list before, or when
     * they never will be; a job id already in the queue gives the existing job's id.
     *
     * @return the ids, or an empty list
     */
    public List<Long> ids() {
        return ids;
    }

    /**
     * Returns the id of the job of a single {@code enqueue} (of a batch: its first job) once written, and empty
     * before, or when it never will be.
     *
     * @return the id, or empty
     */
    public OptionalLong id() {
        List<Long> current = ids;
        return current.isEmpty() ? OptionalLong.empty() : OptionalLong.of(current.get(0));
    }

    /**
     * Returns why writing deferred jobs after their transaction committed failed.
     *
     * @return the failure when {@link Status#FAILED}, else null
     */
    public @Nullable RuntimeException failure() {
        return failure;
    }

    @Override
    public String toString() {
        return "EnqueueResult[queue=" + queue + ", jobs=" + jobCount + ", status=" + status
                + (deferred ? ", deferred" : "") + (ids.isEmpty() ? "" : ", ids=" + ids) + "]";
    }
}
