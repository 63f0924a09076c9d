package io.localqueue;

import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One delivery of a job: its payload, how many deliveries came before it, and the receipt that fences every
 * transition; once the lease expires or the job is redelivered, this object can no longer settle it.
 *
 * @param <T> the payload type
 * @since 0.1.0
 */
public final class Job<T> {

    private final QueueEngine engine;
    private final String queueName;
    private final long id;
    private final T data;
    private final int attempts;
    private final String receipt;
    private final Map<String, String> headers;
    private final Instant dueAt;
    private final Instant claimedAt;
    private final int priority;
    private final @Nullable String concurrencyKey;
    private volatile Instant leaseExpiresAt;
    /** How this delivery was settled through a queue's {@code ack}, {@code nack} or {@code fail}, once it was. */
    private volatile @Nullable HandlerSettlement settled;

    Job(QueueEngine engine, String queueName, long id, T data, int attempts, String receipt,
        Map<String, String> headers, Instant leaseExpiresAt, Instant dueAt, Instant claimedAt, int priority,
        @Nullable String concurrencyKey) {
        this.dueAt = dueAt;
        this.claimedAt = claimedAt;
        this.priority = priority;
        this.concurrencyKey = concurrencyKey;
        this.engine = engine;
        this.queueName = queueName;
        this.id = id;
        this.data = data;
        this.attempts = attempts;
        this.receipt = receipt;
        this.headers = headers;
        this.leaseExpiresAt = leaseExpiresAt;
    }

    /**
     * Returns the message id, stable across redeliveries and shared with {@code listFailed} and {@code retryFailed}.
     *
     * @return the id
     */
    public long id() {
        return id;
    }

    /**
     * Returns the payload, decoded by the queue's serializer.
     *
     * @return the payload
     */
    public T data() {
        return data;
    }

    /**
     * Returns how many deliveries came before this one: 0 on the first delivery.
     *
     * @return the zero-based attempt number
     */
    public int attempts() {
        return attempts;
    }

    /**
     * Returns the fencing token of this delivery; a later delivery of the same job has another.
     *
     * @return the receipt
     */
    public String receipt() {
        return receipt;
    }

    /**
     * Returns the headers stored with the job when it was put ({@link EnqueueItem#headers()}), the same on every
     * delivery; empty when it was put without any, as every job the Python library put is.
     *
     * @return the headers, unmodifiable, in the order they were put
     * @since 0.1.0
     */
    public Map<String, String> headers() {
        return headers;
    }

    /**
     * Returns when this delivery fell due: when the job was put, its {@code runAt} or {@code delay}, or the end of a
     * retry's delay; the claim took it at or after this instant, never before.
     *
     * @return the due time of this delivery
     * @since 0.1.0
     */
    public Instant dueAt() {
        return dueAt;
    }

    /**
     * Returns when this delivery was claimed, on the queue's clock: never before {@link #dueAt()}, and the difference
     * is how late the claim came.
     *
     * @return the time of the claim
     * @since 0.1.0
     */
    public Instant claimedAt() {
        return claimedAt;
    }

    /**
     * Returns the job's priority, the same on every delivery: smaller is claimed first, 0 by default and for every job
     * the Python library put.
     *
     * @return the priority, -1000 to 1000
     * @since 0.1.0
     */
    public int priority() {
        return priority;
    }

    /**
     * Returns the key the job was put with ({@link EnqueueOptions#concurrencyKey(String)}), or null when it has none.
     *
     * @return the concurrency key, or null
     * @since 0.1.0
     */
    public @Nullable String concurrencyKey() {
        return concurrencyKey;
    }

    /**
     * Returns when the lease ends unless extended; after it, any transition through this object fails.
     *
     * @return the lease expiry
     */
    public Instant leaseExpiresAt() {
        return leaseExpiresAt;
    }

    /**
     * Renews the lease to now plus {@code duration} (not the old expiry plus it), or throws
     * {@link LeaseExpiredException} when the lease is already lost.
     *
     * @param duration the new lease length, at least one millisecond
     * @return the new expiry
     */
    public Instant extendLease(Duration duration) {
        return renewOn(engine, duration);
    }

    /**
     * Returns the name of the queue this job was claimed from.
     *
     * @return the queue name
     */
    public String queueName() {
        return queueName;
    }

    /**
     * Renews this delivery's lease through {@code queue}, whose fence decides: another queue's engine finds no such
     * lease and throws {@link LeaseExpiredException}.
     */
    Instant renewOn(QueueEngine queue, Duration duration) {
        long leaseMillis = Durations.requirePositiveMillis(duration, "duration");
        Instant expiry = Instant.ofEpochMilli(queue.extendLease(id, receipt, leaseMillis));
        this.leaseExpiresAt = expiry;
        return expiry;
    }

    /** Records how this delivery was settled through the queue, so a worker running it does not settle it again. */
    void settled(HandlerSettlement settlement) {
        settled = settlement;
    }

    /** Returns how this delivery was settled through the queue, or null while it was not. */
    @Nullable HandlerSettlement settled() {
        return settled;
    }

    @Override
    public String toString() {
        return "Job[queue=" + queueName + ", id=" + id + ", attempts=" + attempts + ", leaseExpiresAt="
                + leaseExpiresAt + "]";
    }
}
