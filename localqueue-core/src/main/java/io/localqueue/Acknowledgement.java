package io.localqueue;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A handle that settles one delivery by hand, for handlers that decide themselves how their job ends:
 * {@link #acknowledge()}, {@link #release(Duration)} or {@link #reject(String)}, once, with {@link #renew(Duration)}
 * as often as needed before that. Every call is fenced like the queue's own: once the lease is lost or the job was
 * delivered again, it throws {@link LeaseExpiredException} and changes nothing.
 *
 * <pre>{@code
 * Acknowledgement ack = Acknowledgement.of(queue, job);
 * if (mailer.accepts(job.data())) { ack.acknowledge(); } else { ack.release(Duration.ofMinutes(5)); }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class Acknowledgement {

    private final Settler settler;
    private final Job<?> job;
    private @Nullable String settled;

    private Acknowledgement(Settler settler, Job<?> job) {
        this.settler = settler;
        this.job = job;
    }

    /**
     * Returns the handle of one delivery of {@code queue}'s job; a job of another queue is fenced out when settled.
     *
     * @param queue the queue the job was claimed from
     * @param job the delivery
     * @param <T> the payload type
     * @return a handle not yet settled
     * @throws IllegalArgumentException when either is null
     */
    public static <T> Acknowledgement of(SimpleQueue<T> queue, Job<T> job) {
        if (queue == null) {
            throw new InvalidArgumentException("queue", "queue must not be null");
        }
        if (job == null) {
            throw new InvalidArgumentException("job", "job must not be null");
        }
        return new Acknowledgement(new Settler() {
            @Override
            public void acknowledge() {
                queue.ack(job);
            }

            @Override
            public void release(Duration delay) {
                queue.nack(job, delay, null);
            }

            @Override
            public void reject(@Nullable String reason) {
                queue.fail(job, reason);
            }

            @Override
            public Instant renew(Duration lease) {
                return queue.extendLease(job, lease);
            }
        }, job);
    }

    /**
     * Acknowledges the job, which is then done.
     *
     * @throws IllegalStateException when this delivery was already settled through this handle
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public synchronized void acknowledge() {
        requireUnsettled("acknowledge");
        settler.acknowledge();
        settled = "acknowledged";
    }

    /**
     * Hands the job back to be delivered again after {@code delay}; the delivery it had counts, so on the last one
     * allowed the job becomes a dead letter ({@link FailureReason#RETRIES_EXHAUSTED}) instead.
     *
     * @param delay how long the job stays invisible, zero or more
     * @throws IllegalStateException when this delivery was already settled through this handle
     * @throws IllegalArgumentException when {@code delay} is null or negative
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public synchronized void release(Duration delay) {
        requireUnsettled("release");
        settler.release(delay);
        settled = "released";
    }

    /**
     * Makes the job a dead letter at once ({@link FailureReason#EXPLICIT_PERMANENT_FAILURE}), keeping
     * {@code reason} as its last error.
     *
     * @param reason why, kept for whoever looks at the dead letters; may be null
     * @throws IllegalStateException when this delivery was already settled through this handle
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public synchronized void reject(@Nullable String reason) {
        requireUnsettled("reject");
        settler.reject(reason);
        settled = "rejected";
    }

    /**
     * Renews the lease to now plus {@code lease}, without settling anything.
     *
     * @param lease the new lease length, at least one millisecond
     * @return the new expiry
     * @throws IllegalStateException when this delivery was already settled
     * @throws LeaseExpiredException when the lease is already lost
     */
    public synchronized Instant renew(Duration lease) {
        requireUnsettled("renew");
        return settler.renew(lease);
    }

    /**
     * Returns which delivery this is: 1 for the first.
     *
     * @return the one-based delivery count
     */
    public int deliveryCount() {
        return job.attempts() + 1;
    }

    /**
     * Returns the job's message id.
     *
     * @return the id
     */
    public long jobId() {
        return job.id();
    }

    /**
     * Returns whether {@code acknowledge}, {@code release} or {@code reject} succeeded through this handle.
     *
     * @return true once settled
     */
    public synchronized boolean isSettled() {
        return settled != null;
    }

    @Override
    public synchronized String toString() {
        return "Acknowledgement[queue=" + job.queueName() + ", id=" + job.id() + ", delivery=" + deliveryCount()
                + (settled != null ? ", " + settled : "") + "]";
    }

    private void requireUnsettled(String call) {
        if (settled != null) {
            throw new IllegalStateException("cannot " + call + " job " + job.id() + " of queue '" + job.queueName()
                    + "': this delivery was already " + settled);
        }
    }

    /** The transitions of the queue the job came from. */
    private interface Settler {
        void acknowledge();

        void release(Duration delay);

        void reject(@Nullable String reason);

        Instant renew(Duration lease);
    }
}
