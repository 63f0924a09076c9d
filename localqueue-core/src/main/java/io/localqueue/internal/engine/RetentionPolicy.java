package io.localqueue.internal.engine;

/**
 * How long a queue keeps its finished rows.
 *
 * @param ackedMillis how long after its acknowledgement an acknowledged row is kept, zero or more
 * @param failedMillis how long after it failed a dead letter is kept, zero or more; {@link #KEEP} keeps it until
 *                     purged
 */
public record RetentionPolicy(long ackedMillis, long failedMillis) {

    /** A {@code failedMillis} that keeps dead letters until purged. */
    public static final long KEEP = -1;

    /**
     * Checks the durations.
     *
     * @throws IllegalArgumentException when one is negative (other than {@link #KEEP} for dead letters)
     */
    public RetentionPolicy {
        if (ackedMillis < 0 || failedMillis < KEEP) {
            throw new IllegalArgumentException("retention durations must not be negative: acked " + ackedMillis
                    + " ms, failed " + failedMillis + " ms");
        }
    }

    /**
     * Returns whether dead letters are kept until purged.
     *
     * @return true when no retention applies to them
     */
    public boolean keepsFailed() {
        return failedMillis == KEEP;
    }

    /**
     * Returns the policy that keeps every row as long as the longer of this and {@code other} does.
     *
     * @param other another queue object's policy for the same queue
     * @return the longer of each
     */
    public RetentionPolicy keepingLongest(RetentionPolicy other) {
        return new RetentionPolicy(Math.max(ackedMillis, other.ackedMillis),
                keepsFailed() || other.keepsFailed() ? KEEP : Math.max(failedMillis, other.failedMillis));
    }
}
