package io.localqueue.internal.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The event bus's transitions of one write transaction, reached through {@link QueueWrites#bus()}: fan-out of
 * deliveries, ingestion checkpoints, the edges from a delivery to the ones its handler emitted, and executions with
 * their source leases. Every store implements them on the same transaction as its queue transitions.
 */
public interface BusWrites {

    /**
     * Creates the event bus's tables where missing, exactly as the Python library's bus declares them; every step is
     * idempotent.
     */
    void createBusTables();

    /**
     * Inserts event-bus deliveries, of any queues, with no capacity limit: a delivery whose event id or identity
     * key its queue already holds, in any state, resolves to that row and changes nothing, unless the stored row
     * has the identity with another payload fingerprint, or the event id with another identity, which is a conflict.
     * A new row's headers are stored with it; a row that stands for a delivery keeps the headers it has.
     *
     * @param deliveries the deliveries in input order
     * @param now the time stamped on new rows
     * @param limit the most pending (ready plus leased) rows each queue may hold after the fan-out, or 0 for no
     *              limit; deliveries that resolve to existing rows take no room, and a fan-out adding none passes
     *              even above the limit
     * @return the ids and which rows are new; or the queue that lacked room, with nothing written; or the conflict
     *         (the caller then rolls the transaction back)
     */
    Delivered deliver(List<Delivery> deliveries, long now, long limit);

    /**
     * Reads an ingestion checkpoint inside the transaction.
     *
     * @param bus the bus's name
     * @param name the checkpoint's name
     * @return the checkpoint, or null when there is none
     */
    @Nullable StoredCheckpoint checkpoint(String bus, String name);

    /**
     * Moves an ingestion checkpoint on, if it is still the one the caller read: creates it (with a new random
     * generation, version 1) when the caller expected none, else advances its cursor and version.
     *
     * @param advance the checkpoint, what the caller read of it, and where it moves
     * @return the checkpoint after the move, or null when it was not the expected one
     */
    @Nullable StoredCheckpoint advanceCheckpoint(CheckpointAdvance advance);

    /**
     * Deletes an ingestion checkpoint; the deliveries it made stay.
     *
     * @param bus the bus's name
     * @param name the checkpoint's name
     * @return true when there was one
     */
    boolean deleteCheckpoint(String bus, String name);

    /**
     * Records that deliveries were emitted by the handler of another, and makes them (and whatever they emitted
     * already) members of every execution the parent belongs to.
     *
     * @param parentId the delivery whose handler emitted them
     * @param childIds the emitted deliveries
     */
    void linkDeliveries(long parentId, List<Long> childIds);

    /**
     * Finds the execution of a source definition, or creates it: once the checkpoint exists, the execution that owns
     * its incarnation; before that, the pending one with the same source fingerprint.
     *
     * @param execution the definition's execution as the caller knows it, and the id and time of a new one
     * @return the execution, or null when the checkpoint's incarnation belongs to no execution
     * @throws IllegalArgumentException when the execution found is another definition's
     */
    @Nullable StoredExecution openExecution(NewExecution execution);

    /**
     * Takes (or renews, with the same receipt) an execution's source lease unless another live receipt holds it or
     * the source is done.
     *
     * @param executionId the execution
     * @param receipt the taker's receipt
     * @param now the time
     * @param leaseUntil when the lease ends
     * @return taken, held by another, or not needed since the source is done
     */
    SourceClaim claimSource(String executionId, String receipt, long now, long leaseUntil);

    /**
     * Tells whether a receipt still holds an execution's live source lease.
     *
     * @param executionId the execution
     * @param receipt the receipt
     * @param now the time
     * @return true when held
     */
    boolean holdsSource(String executionId, String receipt, long now);

    /**
     * Adds a committed batch to its execution: membership of its deliveries and their descendants, its counts, and
     * the checkpoint incarnation it made.
     *
     * @param batch the batch
     * @param now the time stamped
     */
    void recordExecutionBatch(ExecutionBatch batch, long now);

    /**
     * Marks an execution's source as read to the end and releases its lease, if the receipt still holds it.
     *
     * @param executionId the execution
     * @param receipt the receipt
     * @param now the time
     * @return true when marked
     */
    boolean completeSource(String executionId, String receipt, long now);

    /**
     * Releases an execution's source lease, if the receipt still holds it.
     *
     * @param executionId the execution
     * @param receipt the receipt
     */
    void releaseSource(String executionId, String receipt);

    /**
     * Reads an execution with its member deliveries counted, marking it complete when it is.
     *
     * @param executionId the execution
     * @param now the completion time to record
     * @return the execution
     */
    StoredExecution settleExecution(String executionId, long now);

    /**
     * Takes one step of deleting an execution of a bus: if it is complete (its source read to the end, no delivery
     * ready or leased; a completion found now is recorded as {@link #settleExecution} does) and completed at or before
     * {@code completedBefore}, releases up to {@code limit} of its deliveries from it, and deletes the execution once
     * none is left. Its checkpoint, its deliveries and their edges stay.
     *
     * @param bus the bus's name
     * @param executionId the execution
     * @param completedBefore epoch milliseconds; an execution completed later is kept
     * @param now the completion time to record
     * @param limit how many deliveries to release at most, positive
     * @return what the step did
     */
    ExecutionDeletion deleteExecution(String bus, String executionId, long completedBefore, long now, int limit);
}
