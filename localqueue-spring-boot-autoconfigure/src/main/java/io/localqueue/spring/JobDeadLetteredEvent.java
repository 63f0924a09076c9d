package io.localqueue.spring;

import io.localqueue.FailureReason;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEvent;

/**
 * Published when a job a {@code @QueueListener} ran became a dead letter, for alerting: its listener failed
 * permanently or on its last delivery, failed the job itself, or the job's last lease expired. Handle it with an
 * {@code @EventListener}; it is published on the listener's thread, so hand slow work elsewhere. Replay the job with
 * {@code retryFailed(jobId)} or the actuator endpoint.
 *
 * @since 0.1.0
 */
public class JobDeadLetteredEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final long jobId;
    private final FailureReason reason;
    private final @Nullable String lastError;
    private final int attempts;

    /**
     * Creates the event.
     *
     * @param source what published it
     * @param queue the queue
     * @param jobId the dead letter's id
     * @param reason why it failed
     * @param lastError the error recorded with it, or null
     * @param attempts its deliveries, the last included
     */
    public JobDeadLetteredEvent(Object source, String queue, long jobId, FailureReason reason,
                                @Nullable String lastError, int attempts) {
        super(source);
        this.queue = queue;
        this.jobId = jobId;
        this.reason = reason;
        this.lastError = lastError;
        this.attempts = attempts;
    }

    /**
     * Returns the queue.
     *
     * @return the queue name
     */
    public String getQueue() {
        return queue;
    }

    /**
     * Returns the dead letter's id.
     *
     * @return the id
     */
    public long getJobId() {
        return jobId;
    }

    /**
     * Returns why the job failed.
     *
     * @return the reason
     */
    public FailureReason getReason() {
        return reason;
    }

    /**
     * Returns the error recorded with the dead letter.
     *
     * @return the error, or null
     */
    public @Nullable String getLastError() {
        return lastError;
    }

    /**
     * Returns how many deliveries the job had.
     *
     * @return the deliveries, the last included
     */
    public int getAttempts() {
        return attempts;
    }

    @Override
    public String toString() {
        return "JobDeadLetteredEvent[queue=" + queue + ", jobId=" + jobId + ", reason=" + reason.value()
                + ", attempts=" + attempts + "]";
    }
}
