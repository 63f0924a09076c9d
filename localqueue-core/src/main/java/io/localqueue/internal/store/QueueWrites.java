package io.localqueue.internal.store;

import java.util.List;

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
     * @param request the queue, the time, the lease, how many jobs at most, whether to look for expired leases and
     *                the delivery budget to write
     * @return the leased rows in claim order, and how many expired leases were reclaimed
     */
    ClaimBatch claim(ClaimRequest request);

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
     * Moves a waiting job's due time, if it is a ready (not leased, not finished) job of the queue.
     *
     * @param queue the queue
     * @param id the job's id
     * @param availableAt the new due time, epoch milliseconds
     * @param now the time of the change
     * @return true when the job was waiting and now has the new due time
     */
    boolean reschedule(String queue, long id, long availableAt, long now);

    /**
     * Deletes a waiting job, its headers with it, if it is a ready (not leased, not finished) job of the queue that no
     * event-bus execution reports on.
     *
     * @param queue the queue
     * @param id the job's id
     * @return true when the job was waiting and is gone
     */
    boolean cancel(String queue, long id);

    /**
     * Deletes a dead letter, its headers with it, if it is one of the queue's and no event-bus execution reports on it.
     *
     * @param queue the queue
     * @param id the dead letter's id
     * @return true when it was a dead letter and is gone
     */
    boolean deleteFailed(String queue, long id);

    /**
     * Pauses the queue for every process on the store: no claim takes its jobs until {@link #resume}; a queue paused
     * already keeps its first pause.
     *
     * @param queue the queue
     * @param by who pauses it, kept with the pause
     * @param now the time of the pause
     * @return true when the queue was running and is paused now
     */
    boolean pause(String queue, String by, long now);

    /**
     * Lets every process claim from the queue again.
     *
     * @param queue the queue
     * @return true when the queue was paused
     */
    boolean resume(String queue);

    /**
     * Stores limits as the queue's, for every process on the store: each non-null one replaces the stored one, 0
     * lifting it.
     *
     * @param queue the queue
     * @param changes the limits a queue object was built with
     */
    void setLimits(String queue, LimitChanges changes);

    /**
     * Takes a named turn of background work (a queue's retention) for {@code holder} until {@code until}, unless
     * another holder's turn of that name lasts past {@code now}; the same holder may take it again.
     *
     * @param name the work's name
     * @param holder who takes it, unique to one process's database handle
     * @param now the time of taking it
     * @param until when the turn ends unless finished before
     * @return true when the turn is the holder's
     */
    boolean takeTurn(String name, String holder, long now, long until);

    /**
     * Ends a named turn of the holder's and records when it ran and how many rows it deleted; a turn another holder
     * took meanwhile is left as it is.
     *
     * @param name the work's name
     * @param holder the holder that took it
     * @param now the time of the end
     * @param deleted how many rows the turn deleted
     */
    void finishTurn(String name, String holder, long now, long deleted);

    /**
     * Deletes up to {@code limit} finished rows of one state last changed before {@code cutoff}, oldest first; rows
     * an event-bus execution still reports on are kept, and a pending or leased row is never touched.
     *
     * @param queue the queue
     * @param status {@link RowStatus#ACKED} or {@link RowStatus#FAILED}
     * @param cutoff epoch milliseconds
     * @param limit the most rows to delete
     * @return how many rows were deleted; fewer than {@code limit} when no more are due for deletion
     */
    int deleteFinished(String queue, int status, long cutoff, int limit);

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
     * Returns the event bus's transitions, in this same transaction: what the bus writes besides queue rows (its
     * deliveries' fan-out, checkpoints, executions) commits or rolls back with the queue transitions called here.
     *
     * @return the bus's transitions, bound to this transaction
     */
    BusWrites bus();

    /**
     * Returns the transitions of recurring jobs, in this same transaction: a tick's job is enqueued with the tick's
     * record, or neither is.
     *
     * @return the recurring jobs' transitions, bound to this transaction
     */
    RecurringWrites recurring();
}
