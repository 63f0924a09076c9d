package io.localqueue;

import org.jspecify.annotations.Nullable;

/**
 * How a handler settled its job itself, through the queue's {@code ack}, {@code nack} or {@code fail}, so that the
 * worker running it reports that settlement rather than making another; written once, as one value.
 *
 * @param outcome what the settlement did
 * @param deadLetterReason why it made the job a dead letter, or null when it did not
 * @param lastError the error it recorded with the dead letter, or null
 */
record HandlerSettlement(JobOutcome outcome, @Nullable FailureReason deadLetterReason, @Nullable String lastError) {

    /** A settlement that did not make the job a dead letter. */
    static HandlerSettlement of(JobOutcome outcome) {
        return new HandlerSettlement(outcome, null, null);
    }

    /** A settlement that made the job a dead letter. */
    static HandlerSettlement deadLettered(FailureReason reason, @Nullable String lastError) {
        return new HandlerSettlement(JobOutcome.DEAD_LETTERED, reason, lastError);
    }
}
