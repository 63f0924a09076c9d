package io.localqueue.spring;

import io.localqueue.RetryPolicy;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How long a queue's listeners wait between a failed delivery and the next: {@code initialDelay} after the first,
 * growing by {@code multiplier} up to {@code maxDelay}, each drawn between zero and that value with {@code jitter};
 * a multiplier of 1 keeps the wait fixed, an initial delay of zero retries at once.
 *
 * @param initialDelay the wait after the first failed delivery, zero or more
 * @param multiplier how much each further wait grows, at least 1
 * @param maxDelay the longest wait, at least {@code initialDelay}
 * @param jitter whether each wait is drawn uniformly between zero and its exponential value (full jitter)
 * @since 0.1.0
 */
public record RetryBackoff(Duration initialDelay, double multiplier, Duration maxDelay, boolean jitter) {

    /** The default: 1 s, doubling to at most 5 minutes, with full jitter. */
    public static final RetryBackoff DEFAULT = new RetryBackoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), true);

    /**
     * Validates the backoff.
     *
     * @throws IllegalArgumentException naming the component that is out of range
     */
    public RetryBackoff {
        if (initialDelay == null || initialDelay.isNegative()) {
            throw new IllegalArgumentException("initialDelay must be zero or more, got " + initialDelay);
        }
        if (!Double.isFinite(multiplier) || multiplier < 1.0) {
            throw new IllegalArgumentException("multiplier must be finite and at least 1, got " + multiplier);
        }
        if (maxDelay == null || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("maxDelay must not be shorter than initialDelay (" + initialDelay
                    + "), got " + maxDelay);
        }
    }

    /**
     * Returns a copy with the given components replaced; null ones keep this backoff's.
     *
     * @param newInitialDelay the initial delay, or null
     * @param newMultiplier the multiplier, or null
     * @param newMaxDelay the longest wait, or null
     * @param newJitter whether to jitter, or null
     * @return the copy, validated
     */
    public RetryBackoff with(@Nullable Duration newInitialDelay, @Nullable Double newMultiplier,
                             @Nullable Duration newMaxDelay, @Nullable Boolean newJitter) {
        return new RetryBackoff(newInitialDelay != null ? newInitialDelay : initialDelay,
                newMultiplier != null ? newMultiplier : multiplier, newMaxDelay != null ? newMaxDelay : maxDelay,
                newJitter != null ? newJitter : jitter);
    }

    /**
     * Returns the retry policy of a queue whose jobs get {@code maxAttempts} deliveries.
     *
     * @param maxAttempts the queue's delivery budget
     * @return a fixed policy for a multiplier of 1, else an exponential one
     */
    public RetryPolicy toPolicy(int maxAttempts) {
        return multiplier == 1.0 ? RetryPolicy.fixed(maxAttempts, initialDelay)
                : RetryPolicy.exponential(maxAttempts, initialDelay, multiplier, maxDelay, jitter);
    }
}
