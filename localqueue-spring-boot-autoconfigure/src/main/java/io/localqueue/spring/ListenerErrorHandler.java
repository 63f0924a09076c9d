package io.localqueue.spring;

import io.localqueue.Job;

/**
 * Sees every exception a {@link QueueListener} method throws, before the job is settled by it, for logging or
 * metrics around failures (Spring Kafka's error handler idea, kept small); declare one bean of this type. Returning
 * lets the exception decide the outcome as usual; throwing another one (such as a
 * {@link io.localqueue.RetryLaterException}, or a permanent error) makes that one decide it instead. A batch
 * listener's handler is called once per failed batch, with the batch's first job.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ListenerErrorHandler {

    /**
     * Handles one failure.
     *
     * @param listenerId the listener's id
     * @param job the job whose delivery failed (a batch's first job)
     * @param error what the method threw
     * @throws Exception to settle the job by this exception instead
     */
    void handleError(String listenerId, Job<?> job, Exception error) throws Exception;
}
