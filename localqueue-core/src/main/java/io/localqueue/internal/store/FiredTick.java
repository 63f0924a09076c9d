package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * What firing a tick did.
 *
 * @param outcome the outcome
 * @param jobId the message id of the job it enqueued, or null when it enqueued none
 */
public record FiredTick(Outcome outcome, @Nullable Long jobId) {

    /** How a tick ended. */
    public enum Outcome {
        /** It enqueued its job. */
        ENQUEUED,
        /** Its job was not enqueued: the job of the tick before was still waiting or running. */
        SKIPPED_OVERLAP,
        /** It was missed while no process ran the schedule, and passed over. */
        SKIPPED_MISSED,
        /** Another process fired it first, or the schedule is already past it: nothing was done. */
        ALREADY_DONE,
        /** The recurring job changed, was disabled or deleted since the tick was computed: nothing was done. */
        STALE
    }

    /** A tick that did nothing. */
    public static FiredTick of(Outcome outcome) {
        return new FiredTick(outcome, null);
    }
}
