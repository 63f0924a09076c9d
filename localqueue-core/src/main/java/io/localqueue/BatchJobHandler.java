package io.localqueue;

import java.util.List;

/**
 * The work for a batch of jobs, run by a {@link Worker} built with {@link Worker#batchBuilder}: returning
 * acknowledges every job of the batch; a {@link BatchFailedException} fails only the job at its index and
 * acknowledges the others; any other exception fails them all (each retried or dead-lettered as a single job would
 * be). A job the handler settled itself (through the queue or an {@link Acknowledgement}) keeps that settlement.
 *
 * @param <T> the payload type
 * @since 0.1.0
 */
@FunctionalInterface
public interface BatchJobHandler<T> {

    /**
     * Handles a batch.
     *
     * @param jobs one to the worker's batch size of jobs, in claim order; the list cannot be changed
     * @throws Exception to fail the batch, or {@link BatchFailedException} to fail one of its jobs
     */
    void handle(List<Job<T>> jobs) throws Exception;
}
