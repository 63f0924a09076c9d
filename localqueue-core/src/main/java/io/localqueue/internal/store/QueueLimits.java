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
     * How many parts of its period the rate limit logs claims in: a claim is logged at the end of its part, so it
     * counts until a whole period has passed since the last moment its part holds, and the log keeps at most this many
     * entries a period.
     */
    public static final int RATE_LOG_PARTS = 64;

    /**
     * The time the rate log records a claim made at {@code now} under: the last millisecond of the part of the period
     * (a {@value #RATE_LOG_PARTS}th, at least 1 ms, counted from the epoch) that holds it, so that no claim leaves a
     * count before its own time is a period old.
     *
     * @param now the claim's time
     * @return the time to log it at, at or after {@code now}
     */
    public long rateLogTime(long now) {
        long part = Math.max(1, ratePeriodMillis / RATE_LOG_PARTS);
        return now - Math.floorMod(now, part) + part - 1;
    }

    /**
     * Tells whether any limit is in force.
     *
     * @return true when a claim must count
     */
    public boolean any() {
        return maxConcurrent > 0 || maxConcurrentPerKey > 0 || ratePermits > 0;
    }
}
