package io.localqueue.bus;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Where a finite execution stands: its identity, whether its source was read to the end and when it completed, what
 * it ingested in all (across resumes), and the states of its deliveries (its source's and every one their handlers
 * emitted) as counted when it was read. Failed deliveries are reported here, not thrown; see
 * {@link #throwIfFailures()}.
 *
 * @param executionId the execution's id
 * @param resumed whether this call found the execution already begun
 * @param sourceName the source definition's name
 * @param checkpointName the checkpoint's name
 * @param sourceFingerprint the source's fingerprint
 * @param checkpointGeneration the checkpoint incarnation it owns, or null when nothing was committed yet
 * @param sourceCompleted whether the source was read to the end
 * @param sourceCompletedAt when it was, or null
 * @param completedAt when the execution completed, or null
 * @param createdAt when the execution began
 * @param updatedAt when it last changed
 * @param itemsCommitted source items committed
 * @param eventsDispatched events routed to a subscription
 * @param eventsUnrouted events routed nowhere
 * @param deliveriesInserted new deliveries of the source's events
 * @param deliveriesDeduplicated deliveries an existing row stood for
 * @param batchesCommitted batches committed
 * @param deliveriesTotal member deliveries, emitted ones included
 * @param deliveriesReady members ready (delayed retries included)
 * @param deliveriesProcessing members leased
 * @param deliveriesAcknowledged members acknowledged
 * @param deliveriesFailed members that are dead letters
 * @since 0.1.0
 */
public record ExecutionResult(UUID executionId, boolean resumed, String sourceName, String checkpointName,
                              String sourceFingerprint, @Nullable String checkpointGeneration,
                              boolean sourceCompleted, @Nullable Instant sourceCompletedAt,
                              @Nullable Instant completedAt, Instant createdAt, Instant updatedAt,
                              long itemsCommitted, long eventsDispatched, long eventsUnrouted,
                              long deliveriesInserted, long deliveriesDeduplicated, long batchesCommitted,
                              long deliveriesTotal, long deliveriesReady, long deliveriesProcessing,
                              long deliveriesAcknowledged, long deliveriesFailed) {

    /**
     * Tells whether the execution completed: its source is done and none of its deliveries is ready or leased.
     *
     * @return true when completed
     */
    public boolean completed() {
        return completedAt != null;
    }

    /**
     * Tells whether it completed without a dead letter.
     *
     * @return true when completed and nothing failed
     */
    public boolean succeeded() {
        return completed() && deliveriesFailed == 0;
    }

    /**
     * Throws when a delivery of the execution is a dead letter; does nothing otherwise.
     *
     * @throws ExecutionFailedException carrying this result
     */
    public void throwIfFailures() {
        if (deliveriesFailed > 0) {
            throw new ExecutionFailedException(this);
        }
    }
}
