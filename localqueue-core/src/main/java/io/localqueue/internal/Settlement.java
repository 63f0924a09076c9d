package io.localqueue.internal;

import io.localqueue.FailureReason;
import org.jspecify.annotations.Nullable;

/**
 * How a worker settles one delivery after its handler finished.
 *
 * @param id the message id
 * @param receipt the delivery's receipt
 * @param kind acknowledge, retry or dead-letter
 * @param lastError the diagnostic kept with a retried or dead-lettered job
 * @param reason why a dead letter failed (for {@link Kind#DEAD_LETTER})
 */
public record Settlement(long id, String receipt, Kind kind, @Nullable String lastError,
                         @Nullable FailureReason reason) {

    /** What to do with the delivery. */
    public enum Kind {
        /** Acknowledge. */
        ACK,
        /** Back to the queue at once, or a dead letter when the budget is spent. */
        RETRY,
        /** A dead letter at once. */
        DEAD_LETTER
    }

    /** What a settlement did. */
    public enum Result {
        /** Acknowledged. */
        ACKED,
        /** Back in the queue. */
        RETRIED,
        /** Now a dead letter. */
        DEAD_LETTERED,
        /** The lease was gone: nothing changed. */
        LEASE_LOST
    }
}
