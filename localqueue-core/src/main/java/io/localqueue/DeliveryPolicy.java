package io.localqueue;

import io.localqueue.internal.time.Durations;
import java.time.Duration;

/**
 * How long a claimed job stays leased and how many times a failed job is retried; a job is delivered at most
 * {@code maxRetries + 1} times before it becomes a dead letter.
 *
 * @param lease how long a claim is held before another worker may take the job; at least one millisecond
 * @param maxRetries how many deliveries may follow the first; zero means a failed first delivery is final
 *
 * @since 0.1.0
 */
public record DeliveryPolicy(Duration lease, int maxRetries) {

    /** The lease used when none is configured: 60 seconds. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

    /** The retry budget used when none is configured: 3 retries, so 4 deliveries in all. */
    public static final int DEFAULT_MAX_RETRIES = 3;

    private static final DeliveryPolicy DEFAULTS = new DeliveryPolicy(DEFAULT_LEASE, DEFAULT_MAX_RETRIES);

    /**
     * Validates the policy; a lease that is null, under one millisecond or beyond the storable range, or a negative
     * (or {@code Integer.MAX_VALUE}) retry count, throws {@link IllegalArgumentException}.
     */
    public DeliveryPolicy {
        Durations.requirePositiveMillis(lease, "lease");
        if (maxRetries < 0) {
            throw new InvalidArgumentException("maxRetries", "maxRetries must be zero or more, got " + maxRetries);
        }
        if (maxRetries == Integer.MAX_VALUE) {
            throw new InvalidArgumentException("maxRetries", "maxRetries must be below " + Integer.MAX_VALUE);
        }
    }

    /**
     * Returns the default policy: a 60-second lease and 3 retries.
     *
     * @return the shared default policy
     */
    public static DeliveryPolicy defaults() {
        return DEFAULTS;
    }

    /**
     * Returns the total number of deliveries a job may receive, which is {@code maxRetries + 1}.
     *
     * @return the attempt budget stored with each new job
     */
    public int maxAttempts() {
        return maxRetries + 1;
    }

    /**
     * Returns a copy with another lease, validated like the constructor (a null lease is an
     * {@link IllegalArgumentException} naming {@code lease}).
     *
     * @param newLease the lease for the copy
     * @return a new policy
     */
    public DeliveryPolicy withLease(Duration newLease) {
        return new DeliveryPolicy(newLease, maxRetries);
    }

    /**
     * Returns a copy with another retry budget, validated like the constructor.
     *
     * @param newMaxRetries the retry budget for the copy
     * @return a new policy
     */
    public DeliveryPolicy withMaxRetries(int newMaxRetries) {
        return new DeliveryPolicy(lease, newMaxRetries);
    }
}
