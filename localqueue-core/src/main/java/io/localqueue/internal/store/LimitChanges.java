package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * The limits a queue object was built with, to store as the queue's: null leaves the stored value, 0 lifts it.
 *
 * @param maxConcurrent how many of the queue's jobs may be leased at once
 * @param maxConcurrentPerKey how many jobs of one concurrency key may be leased at once
 * @param ratePermits how many claims a period may hold; with {@code ratePeriodMillis}
 * @param ratePeriodMillis the rate limit's period, positive when {@code ratePermits} is
 */
public record LimitChanges(@Nullable Integer maxConcurrent, @Nullable Integer maxConcurrentPerKey,
                           @Nullable Integer ratePermits, long ratePeriodMillis) {

    /** Nothing to change. */
    public static final LimitChanges NONE = new LimitChanges(null, null, null, 0);

    /**
     * Tells whether anything is to be stored.
     *
     * @return false when the queue object was built without limits
     */
    public boolean any() {
        return maxConcurrent != null || maxConcurrentPerKey != null || ratePermits != null;
    }
}
