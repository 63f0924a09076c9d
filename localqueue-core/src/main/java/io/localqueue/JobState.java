package io.localqueue;

/**
 * Where a stored job stands, as {@link SimpleQueue#listJobs(JobState, JobCursor, int)} and
 * {@link SimpleQueue#findJob(long)} report it: a waiting job is {@link #READY} once due and {@link #DELAYED} before,
 * measured on the queue's clock at the read.
 *
 * @since 0.1.0
 */
public enum JobState {

    /** Waiting and due: the next claim may take it (a job a full concurrency key holds back included). */
    READY,
    /** Waiting and not yet due (put with a delay, rescheduled, or retried after a back-off). */
    DELAYED,
    /** Claimed under a lease, including a lease that expired and was not yet taken back. */
    LEASED,
    /** Acknowledged, kept until retention or a purge deletes it. */
    ACKED,
    /** A dead letter: it failed for good, kept until retried or purged. */
    FAILED
}
