package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * When a queue next has something to claim, as a read saw it.
 *
 * @param earliestDue the smallest due time of a ready job, or null when none is ready
 * @param earliestLeaseEnd the smallest lease end of a leased job, or null when none is leased
 */
public record ClaimProbe(@Nullable Long earliestDue, @Nullable Long earliestLeaseEnd) {

    /**
     * What a probe of a paused queue sees: nothing to claim until a commit (the one that resumes it) changes that.
     * Stores return this very instance, and callers tell it by identity from an empty queue's equal probe.
     */
    public static final ClaimProbe PAUSED = new ClaimProbe(null, null);

    /**
     * Tells whether a claim at {@code now} would find a due job or an expired lease.
     *
     * @param now epoch milliseconds
     * @return true when a claim is worth its write transaction
     */
    public boolean claimable(long now) {
        return (earliestDue != null && earliestDue <= now) || (earliestLeaseEnd != null && earliestLeaseEnd <= now);
    }

    /**
     * Returns the milliseconds until a job becomes due or a lease expires, never negative.
     *
     * @param now epoch milliseconds
     * @return the wait, or {@code Long.MAX_VALUE} when nothing will happen without a new commit
     */
    public long millisUntilNextEvent(long now) {
        long next = Long.MAX_VALUE;
        if (earliestDue != null) {
            next = Math.min(next, earliestDue - now);
        }
        if (earliestLeaseEnd != null) {
            next = Math.min(next, earliestLeaseEnd - now);
        }
        return Math.max(0, next);
    }
}
