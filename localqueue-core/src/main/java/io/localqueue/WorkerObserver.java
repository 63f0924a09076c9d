package io.localqueue;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Receives what a {@link Worker} does, for metrics, logs and alerts. Called on the worker's report thread,
 * {@code localqueue-report-<worker name>}, one call at a time in the order of the outcomes, never on the thread that
 * records settlements: a slow observer delays only the worker's later reports, and the first call slower than a
 * second is logged once. Anything it throws is logged and ignored.
 *
 * @since 0.1.0
 */
public interface WorkerObserver {

    /** An observer that ignores everything. */
    WorkerObserver NONE = new WorkerObserver() {
    };

    /**
     * Called once per delivery after its outcome is settled (or, for {@link JobOutcome#DISCARDED}, abandoned).
     *
     * @param job the delivery
     * @param outcome what happened to it
     * @param handlerTime how long the handler ran
     * @param error what the handler threw, or null when it returned
     */
    default void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
    }

    /**
     * Called when a delivery of this worker made its job a dead letter, after {@link #jobFinished} (or
     * {@link #leaseExpired}, or {@link #jobUndecodable}) told of it: the handler failed permanently or on its last
     * delivery, or failed the job itself, the job's last lease expired, or its payload could not be decoded.
     *
     * @param queueName the queue
     * @param jobId the job, which {@code listFailed} now lists and {@code retryFailed} can replay
     * @param reason why it failed
     * @param lastError the error recorded with it, or null
     * @param attempts its deliveries, the last included
     * @since 0.1.0
     */
    default void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                 int attempts) {
    }

    /**
     * Called once per delivery whose payload the queue's serializer could not decode: no handler ran, the job is
     * now a dead letter ({@link FailureReason#INVALID_PAYLOAD}), and {@link #jobDeadLettered} tells of it next.
     *
     * @param queueName the queue
     * @param jobId the job, which {@code listFailed} lists with its raw payload and decode error
     * @param attempts its deliveries, this one included
     * @param decodeError why it could not be decoded
     * @since 0.1.0
     */
    default void jobUndecodable(String queueName, long jobId, int attempts, String decodeError) {
    }

    /**
     * Called when the worker's claims found a lease that ran out before its delivery was settled (a handler that
     * outlived its lease here, or a process that died holding it) and took the job back.
     *
     * @param queueName the queue
     * @param jobId the job
     * @param attempts its deliveries so far, the expired one included
     * @param deadLettered true when that was its last delivery and it became a dead letter
     *                     ({@link FailureReason#RETRIES_EXHAUSTED}, with a {@code lastError} saying the lease expired);
     *                     false when it is ready again
     * @since 0.1.0
     */
    default void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
    }
}
