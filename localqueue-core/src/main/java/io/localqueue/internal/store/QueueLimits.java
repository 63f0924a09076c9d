package io.localqueue.internal.store;

/**
 * The limits a queue's claims obey, stored with the queue, so that every process on the store obeys the same ones;
 * 0 for a limit that is not in force.
 *
 * @param maxConcurrent how many of the queue's jobs may be leased at once
 * @param maxConcurrentPerKey how many jobs of one concurrency key may be leased at once
 * @param ratePermits how many claims a period may hold
 * @param ratePeriodMillis the rate limit's period, when it has permits
 */
public record QueueLimits(int maxConcurrent, int maxConcurrentPerKey, int ratePermits, long ratePeriodMillis) {

    /** No limit in force. */
    public static final QueueLimits NONE = new QueueLimits(0, 0, 0, 0);

    /**
     * Tells whether any limit is in force.
     *
     * @return true when a claim must count
     */
    public boolean any() {
        return maxConcurrent > 0 || maxConcurrentPerKey > 0 || ratePermits > 0;
    }
}
