package io.localqueue;

/**
 * The work a {@link Worker} does for each job: returning acknowledges the job, throwing retries it or, for a
 * permanent error, makes it a dead letter.
 *
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface JobHandler<T> {

    /**
     * Handles one delivery; it may run again for the same job after a failure or a lost lease, so it should be
     * idempotent.
     *
     * @param job the claimed job
     * @throws Exception to retry the job, or to dead-letter it when the exception is one of the worker's
     *                   permanent errors
     */
    void handle(Job<T> job) throws Exception;
}
