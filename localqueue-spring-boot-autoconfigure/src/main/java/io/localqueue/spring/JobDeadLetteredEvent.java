package io.localqueue.spring;

import io.localqueue.FailureReason;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEvent;

/**
 * Published when a job a {@code @QueueListener} ran, or a delivery an {@code @EventHandler} ran, became a dead letter,
 * for alerting: its handler failed permanently or on its last delivery, failed or rejected it itself, its payload or
 * envelope could not be decoded, or its last lease expired. Handle it with an {@code @EventListener}; it is published
 * on the consumer's report thread ({@code localqueue-report-<listener id>}, {@code localqueue-report-bus-<bus>-
 * <subscription>}), one dead letter at a time, never on the thread that records settlements: a slow listener delays
 * only that consumer's later reports, and the first report slower than a second is logged. Replay the job with
 * {@code retryFailed(jobId)} (a subscription's, for a bus delivery) or the actuator endpoint.
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
    private final @Nullable String subscription;

    /**
     * Creates the event of a queue listener's dead letter.
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
        this(source, queue, jobId, reason, lastError, attempts, null);
    }

    /**
     * Creates the event of a dead letter of a queue listener or, with a subscription, of an event-bus handler.
     *
     * @param source what published it
     * @param queue the queue, for a bus delivery the one that holds its subscription's deliveries
     * @param jobId the dead letter's id
     * @param reason why it failed
     * @param lastError the error recorded with it, or null
     * @param attempts its deliveries, the last included
     * @param subscription the event-bus subscription, or null for a queue listener's job
     * @since 0.1.0
     */
    public JobDeadLetteredEvent(Object source, String queue, long jobId, FailureReason reason,
                                @Nullable String lastError, int attempts, @Nullable String subscription) {
        super(source);
        this.queue = queue;
        this.jobId = jobId;
        this.reason = reason;
        this.lastError = lastError;
        this.attempts = attempts;
        this.subscription = subscription;
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

    /**
     * Returns the event-bus subscription whose delivery this is.
     *
     * @return the subscription, or null for a queue listener's job
     * @since 0.1.0
     */
    public @Nullable String getSubscription() {
        return subscription;
    }

    @Override
    public String toString() {
        return "JobDeadLetteredEvent[queue=" + queue + (subscription == null ? "" : ", subscription=" + subscription)
                + ", jobId=" + jobId + ", reason=" + reason.value() + ", attempts=" + attempts + "]";
    }
}
