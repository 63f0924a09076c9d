package io.localqueue.internal.store;

import io.localqueue.FailureReason;
import org.jspecify.annotations.Nullable;

/**
 * How one delivery is settled: the fence that must still match, and the transition to make.
 *
 * @param queue the delivery's queue
 * @param id the message id
 * @param receipt the delivery's receipt
 * @param kind the transition
 * @param now the time of the settlement: the fence requires a lease ending after it, and it stamps the row
 * @param availableAt for {@link Kind#RETRY}, the new due time, or null to keep the job's place in line
 * @param lastError the diagnostic kept with a retried or dead-lettered job
 * @param reason for {@link Kind#DEAD_LETTER}, why; for {@link Kind#RETRY}, the reason stored once the budget is
 *               spent
 * @param category for {@link Kind#DEAD_LETTER}, the failure category stored with it
 */
public record Settlement(String queue, long id, String receipt, Kind kind, long now, @Nullable Long availableAt,
                         @Nullable String lastError, @Nullable FailureReason reason, @Nullable String category) {

    /** The transition of a settlement. */
    public enum Kind {
        /** Done: the job is acknowledged. Settles as {@code ACKED}. */
        ACK,
        /** Back to ready, or a dead letter once the budget is spent. Settles as {@code RETRIED} or {@code DEAD_LETTERED}. */
        RETRY,
        /** A dead letter at once. Settles as {@code DEAD_LETTERED}. */
        DEAD_LETTER,
        /** Handed back unstarted: ready in its old place, the claim not counted. Settles as {@code RETRIED}. */
        RELEASE
    }

    /**
     * Returns the failure reason a retry or dead letter stores; the caller decides every one, so a missing one is a
     * bug, not a default.
     *
     * @return the reason
     * @throws IllegalStateException when the settlement carries none
     */
    public FailureReason requiredReason() {
        if (reason == null) {
            throw new IllegalStateException("a " + kind + " settlement of job " + id + " carries no failure reason");
        }
        return reason;
    }

    /**
     * Returns this settlement stamped with another time, for another attempt after its transaction failed: the fence
     * then asks for a lease still running at that time.
     *
     * @param time the new settlement time
     * @return the settlement at {@code time}
     */
    public Settlement at(long time) {
        return new Settlement(queue, id, receipt, kind, time, availableAt, lastError, reason, category);
    }

    /**
     * Returns an acknowledgement.
     *
     * @param queue the queue
     * @param id the message id
     * @param receipt the receipt
     * @param now the settlement time
     * @return the settlement
     */
    public static Settlement ack(String queue, long id, String receipt, long now) {
        return new Settlement(queue, id, receipt, Kind.ACK, now, null, null, null, null);
    }

    /**
     * Returns a retry, which becomes a dead letter with {@code exhaustedReason} once the budget is spent.
     *
     * @param queue the queue
     * @param id the message id
     * @param receipt the receipt
     * @param now the settlement time
     * @param availableAt the new due time, or null to keep the job's place
     * @param lastError the diagnostic, or null
     * @param exhaustedReason the reason stored when the budget is spent
     * @return the settlement
     */
    public static Settlement retry(String queue, long id, String receipt, long now, @Nullable Long availableAt,
                                   @Nullable String lastError, FailureReason exhaustedReason) {
        return new Settlement(queue, id, receipt, Kind.RETRY, now, availableAt, lastError, exhaustedReason, null);
    }

    /**
     * Returns a dead letter.
     *
     * @param queue the queue
     * @param id the message id
     * @param receipt the receipt
     * @param now the settlement time
     * @param lastError the diagnostic, or null
     * @param reason why
     * @param category the failure category, or null
     * @return the settlement
     */
    public static Settlement deadLetter(String queue, long id, String receipt, long now, @Nullable String lastError,
                                        FailureReason reason, @Nullable String category) {
        return new Settlement(queue, id, receipt, Kind.DEAD_LETTER, now, null, lastError, reason, category);
    }

    /**
     * Returns a hand-back of a delivery no handler started.
     *
     * @param queue the queue
     * @param id the message id
     * @param receipt the receipt
     * @param now the settlement time
     * @return the settlement
     */
    public static Settlement release(String queue, long id, String receipt, long now) {
        return new Settlement(queue, id, receipt, Kind.RELEASE, now, null, null, null, null);
    }
}
