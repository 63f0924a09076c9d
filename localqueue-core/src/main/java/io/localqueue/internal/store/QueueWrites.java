package io.localqueue.internal.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The transitions of the queue's state machine, each run inside the caller's write transaction
 * ({@link QueueStore#write}). Every fenced transition matches only a delivery's current lease: same queue, still
 * leased, same receipt, lease not yet expired at the transition's {@code now}.
 */
public interface QueueWrites {

    /**
     * Inserts jobs unless the queue lacks room; a job id the queue already holds, in any state, resolves to the
     * existing row, changes nothing and takes no room.
     *
     * @param queue the queue
     * @param jobs the jobs in input order
     * @param maxAttempts the delivery budget stored with each new row
     * @param now the time stamped on new rows
     * @param limit the pending-job limit (ready plus leased), or 0 for none
     * @return the ids in input order, or why nothing was written
     */
    Enqueued enqueue(String queue, List<NewJob> jobs, int maxAttempts, long now, long limit);

    /**
     * Leases up to {@code limit} due jobs in claim order (due time, then id), after moving expired leases back to
     * ready (or to failed when their budget is spent) when asked to look for them.
     *
     * @param queue the queue
     * @param now the claim time
     * @param leaseUntil when the new leases end
     * @param limit how many jobs at most, at least one
     * @param lookForExpired false when the caller knows no lease of the queue can have expired since its last look
     * @param budget a delivery budget to write onto every leased row and reclaimed lease, failing (as
     *               {@code retries_exhausted}) a due row whose claims reached it instead of leasing it; 0 keeps each
     *               row's own
     * @return the leased rows in claim order, and how many expired leases were reclaimed
     */
    ClaimBatch claim(String queue, long now, long leaseUntil, int limit, boolean lookForExpired, int budget);

    /**
     * Moves every expired lease of a queue back to ready, keeping its due time, or to failed
     * ({@code retries_exhausted}) when its budget is spent.
     *
     * @param queue the queue
     * @param now leases ending at or before this have expired
     * @return the expired leases taken back
     */
    List<ExpiredLease> reclaimExpired(String queue, long now);

    /**
     * Moves every lease of a queue whose receipt names one of the given holders back to ready, however long it had
     * left, keeping its due time, or to failed ({@code retries_exhausted}) when its budget is spent: the delivery
     * counts, as an expired one does. Only the leases of those holders are touched, so a holder that still runs
     * must never be passed.
     *
     * @param queue the queue
     * @param holders holder names ({@link Receipts}), each of a process known to have ended
     * @param now the time stamped on the rows
     * @param budget a delivery budget to write onto those leases first, as a claim does; 0 keeps each row's own
     * @return the leases taken back
     */
    List<ExpiredLease> reclaimAbandoned(String queue, List<String> holders, long now, int budget);

    /**
     * Applies fenced settlements and lease renewals, each under its own fence; a delivery whose fence does not
     * match is left alone and reported as such.
     *
     * @param settlements acknowledgements, retries, dead letters and hand-backs, of any queues
     * @param renewals lease renewals, of any queues
     * @return what each settlement and renewal did, index by index
     */
    FencedResults settle(List<Settlement> settlements, List<Renewal> renewals);

    /**
     * Moves one dead letter back to ready with a fresh budget, if it is a dead letter of the queue and the queue has
     * room; an event-bus execution that delivered it is reopened.
     *
     * @param queue the queue
     * @param id the dead letter's id
     * @param now the new due time
     * @param limit the pending-job limit, or 0 for none
     * @return what happened
     */
    DeadLetterRetry retryFailed(String queue, long id, long now, long limit);

    /**
     * Deletes acknowledged rows, and dead letters too when asked, last changed before {@code cutoff}; rows an
     * event-bus execution still reports on are kept.
     *
     * @param queue the queue
     * @param cutoff epoch milliseconds
     * @param includeFailed whether dead letters go too
     * @return how many rows were deleted
     */
    int purge(String queue, long cutoff, boolean includeFailed);

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
     * @param bus the bus's name
     * @param name the checkpoint's name
     * @param expected the checkpoint the caller read, or null when it expected none
     * @param cursor the cursor after the last item committed
     * @param fingerprint the source's fingerprint, or null
     * @param items how many source items the batch consumed
     * @param now the time stamped on it
     * @return the checkpoint after the move, or null when it was not the expected one
     */
    @Nullable StoredCheckpoint advanceCheckpoint(String bus, String name, @Nullable StoredCheckpoint expected,
                                                 String cursor, @Nullable String fingerprint, long items, long now);

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
     * @param bus the bus's name
     * @param sourceName the definition's name
     * @param checkpoint the checkpoint's name
     * @param fingerprint the source's fingerprint
     * @param checkpointGeneration the checkpoint's incarnation as read in this transaction, or null when it does not
     *                             exist
     * @param newId the id to give a new execution
     * @param now the time stamped on a new one
     * @return the execution, or null when the checkpoint's incarnation belongs to no execution
     * @throws IllegalArgumentException when the execution found is another definition's
     */
    @Nullable StoredExecution openExecution(String bus, String sourceName, String checkpoint, String fingerprint,
                                            @Nullable String checkpointGeneration, String newId, long now);

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
