package io.localqueue.test;

import io.localqueue.JobOutcome;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One delivery a listener finished, as {@link LocalQueueTestSupport#drain} reports it.
 *
 * @param queue the queue
 * @param jobId the job's id; a job retried twice appears three times with the same id
 * @param attempts the delivery's number, zero-based: the first delivery is 0
 * @param payload the payload the listener received, or null for a JSON {@code null}
 * @param outcome what became of the delivery
 * @param error what the listener threw, or null when it returned
 * @param handlerTime how long the listener ran
 *
 * @since 0.1.0
 */
public record HandledJob(String queue, long jobId, int attempts, @Nullable Object payload, JobOutcome outcome,
                         @Nullable Throwable error, Duration handlerTime) {

    /**
     * Returns the payload as the listener's payload type.
     *
     * @param type the payload class
     * @param <T> the payload type
     * @return the payload
     * @throws ClassCastException when the payload is of another type
     * @since 0.1.0
     */
    public <T> T payload(Class<T> type) {
        return type.cast(payload);
    }
}
