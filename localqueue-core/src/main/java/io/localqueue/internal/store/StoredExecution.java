package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * An event-bus execution as stored (its row and its runtime row), with the states of its member deliveries counted
 * when it was read.
 *
 * @param executionId the id, 32 lower-case hexadecimal digits
 * @param busName the bus
 * @param sourceName the source definition's name
 * @param checkpointName the checkpoint
 * @param sourceFingerprint the source's fingerprint
 * @param checkpointGeneration the checkpoint incarnation it owns, or null before its first commit
 * @param sourceCompletedAt when its source was read to the end, or null
 * @param completedAt when it completed, or null
 * @param createdAt epoch milliseconds
 * @param updatedAt epoch milliseconds
 * @param itemsCommitted source items committed
 * @param eventsDispatched events routed to a subscription
 * @param eventsUnrouted events routed nowhere
 * @param deliveriesInserted new deliveries
 * @param deliveriesDeduplicated deliveries an existing row stood for
 * @param batchesCommitted batches committed
 * @param ready member deliveries ready (a delayed retry included)
 * @param processing member deliveries leased
 * @param acknowledged member deliveries acknowledged
 * @param failed member deliveries that are dead letters
 */
public record StoredExecution(String executionId, String busName, String sourceName, String checkpointName,
                              String sourceFingerprint, @Nullable String checkpointGeneration,
                              @Nullable Long sourceCompletedAt, @Nullable Long completedAt, long createdAt,
                              long updatedAt, long itemsCommitted, long eventsDispatched, long eventsUnrouted,
                              long deliveriesInserted, long deliveriesDeduplicated, long batchesCommitted, long ready,
                              long processing, long acknowledged, long failed) {

    /**
     * Tells whether nothing of the execution can still run: its source is done and no member is ready or leased.
     *
     * @return true when complete
     */
    public boolean settled() {
        return sourceCompletedAt != null && ready == 0 && processing == 0;
    }

    /**
     * Returns this execution when it is of the source asked for; a checkpoint is owned by one source.
     *
     * @param sourceName the source definition's name
     * @param fingerprint the source's fingerprint
     * @return this execution
     * @throws IllegalArgumentException when the checkpoint's execution is another source's
     */
    public StoredExecution requireSource(String sourceName, String fingerprint) {
        if (!this.sourceName.equals(sourceName) || !sourceFingerprint.equals(fingerprint)) {
            throw new IllegalArgumentException("checkpoint '" + checkpointName + "' of bus '" + busName
                    + "' belongs to execution " + executionId + " of source '" + this.sourceName + "' (fingerprint "
                    + sourceFingerprint + "), not of source '" + sourceName + "' (fingerprint " + fingerprint + ")");
        }
        return this;
    }
}
