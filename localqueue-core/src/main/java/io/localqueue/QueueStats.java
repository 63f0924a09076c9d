package io.localqueue;

/**
 * Row counts of one queue by state, read in one snapshot; delayed jobs count as ready and expired leases as
 * processing until they are reclaimed.
 *
 * @param ready jobs waiting to be claimed, including those delayed into the future
 * @param processing jobs under a lease, including leases that expired but were not yet reclaimed
 * @param acked jobs acknowledged and not yet purged
 * @param failed dead letters not yet retried or purged
 *
 * @since 0.1.0
 */
public record QueueStats(long ready, long processing, long acked, long failed) {

    /**
     * Returns the jobs that count against {@code maxPendingJobs}: ready plus processing.
     *
     * @return ready + processing
     */
    public long pending() {
        return ready + processing;
    }

    /**
     * Returns every row the queue holds, in all four states.
     *
     * @return the sum of the four counts
     */
    public long total() {
        return ready + processing + acked + failed;
    }
}
