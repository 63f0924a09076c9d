package io.localqueue.internal.store.postgresql;

import io.localqueue.JobOutcome;
import io.localqueue.internal.store.BusWrites;
import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.LimitChanges;
import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.RecurringWrites;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.Settlement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The queue's transitions on the connection of one PostgreSQL transaction, in the layout of one schema; failures
 * leave as {@link io.localqueue.LocalQueueException} with PostgreSQL's words and SQLSTATE. The event bus's tables
 * come with the layout, so creating them does nothing here.
 */
final class PostgresWrites implements QueueWrites {

    private @Nullable BusWrites busWrites;
    private @Nullable RecurringWrites recurringWrites;

    /** One statement class's work on the transaction's connection. */
    @FunctionalInterface
    interface Work<R> {
        R run(Connection connection) throws SQLException;
    }

    private final Connection connection;
    private final String schema;
    private final Supplier<@Nullable String> holder;
    /**
     * Gives the transaction its shorter lock wait, while that is still to do: before the first statement of any
     * transition but a claim, which sets it only before a statement of its own that may wait for a lock.
     */
    private @Nullable Work<?> lockWait;
    /** Set once a transition gave waiters work (rows ready) or room (rows no longer pending). */
    private boolean wakes;

    PostgresWrites(Connection connection, String schema) {
        this(connection, schema, () -> null);
    }

    /**
     * Runs transitions whose claims name this host's holder in their receipts.
     *
     * @param holder asked at each claim for this host's holder name, or null for receipts that name none
     */
    PostgresWrites(Connection connection, String schema, Supplier<@Nullable String> holder) {
        this(connection, schema, holder, null);
    }

    /**
     * Runs transitions whose transaction still has to set its lock wait, which matters only to a statement that may
     * wait for another transaction's lock: a claim that takes rows it finds unlocked ({@code SKIP LOCKED}) never sets
     * it, so it costs no round trip.
     *
     * @param holder asked at each claim for this host's holder name, or null for receipts that name none
     * @param lockWait sets the transaction's lock wait on the connection it is given; null when nothing is to set
     */
    PostgresWrites(Connection connection, String schema, Supplier<@Nullable String> holder,
                   @Nullable Work<?> lockWait) {
        this.connection = connection;
        this.schema = schema;
        this.holder = holder;
        this.lockWait = lockWait;
    }

    /**
     * Tells whether a transition of this transaction gave other hosts' waiters work or room, so that its commit
     * should notify them: new or ready-again rows, or rows settled out of the pending count.
     *
     * @return true when waiters should look again
     */
    /** The schema the transitions' statements name. */
    String schema() {
        return schema;
    }

    /** Records that a transition of the bus gave waiters work, when it did. */
    void woke(boolean gaveWork) {
        wakes |= gaveWork;
    }

    boolean wakesWaiters() {
        return wakes;
    }

    /**
     * Notifies the layout's channel, once, when a transition of this transaction gave waiters work or room; the
     * notification reaches other hosts when the transaction commits, and never if it rolls back. Only for a caller's
     * own transaction, whose commit the store does not see: the store's transactions announce themselves after their
     * commit instead ({@link NotifySender}).
     *
     * @throws io.localqueue.LocalQueueException when the database refuses
     */
    void notifyIfWakes() {
        if (wakes) {
            run(c -> {
                try (PreparedStatement notify = c.prepareStatement("SELECT pg_notify(?, '')")) {
                    notify.setString(1, NotifyWatch.channelOf(schema));
                    return notify.execute();
                }
            });
        }
    }

    @Override
    public Enqueued enqueue(String queue, List<NewJob> jobs, int maxAttempts, long now, long limit) {
        Enqueued enqueued = run(c -> EnqueueStatements.insert(c, schema, queue, jobs, maxAttempts, now, limit));
        wakes |= enqueued.ids() != null && enqueued.newRows() > 0;
        return enqueued;
    }

    @Override
    public ClaimBatch claim(ClaimRequest request) {
        ClaimBatch batch = runSettingLockWaitLater(c -> ClaimStatements.claim(c, schema, request.queue(),
                request.now(), request.leaseUntil(), request.limit(), request.lookForExpired(), request.budget(),
                holder.get(), this::setLockWait));
        wakes |= !batch.reclaimed().isEmpty();
        return batch;
    }

    @Override
    public List<ExpiredLease> reclaimExpired(String queue, long now) {
        List<ExpiredLease> expired = run(c -> ClaimStatements.reclaim(c, schema, queue, now));
        wakes |= !expired.isEmpty();
        return expired;
    }

    @Override
    public List<ExpiredLease> reclaimAbandoned(String queue, List<String> holders, long now, int budget) {
        List<ExpiredLease> taken = run(c -> ClaimStatements.reclaimAbandoned(c, schema, queue, holders, now, budget));
        wakes |= !taken.isEmpty();
        return taken;
    }

    @Override
    public FencedResults settle(List<Settlement> settlements, List<Renewal> renewals) {
        FencedResults results = run(c -> LeaseStatements.settle(c, schema, settlements, renewals));
        wakes |= results.outcomes().stream().anyMatch(outcome -> outcome != JobOutcome.DISCARDED);
        return results;
    }

    @Override
    public DeadLetterRetry retryFailed(String queue, long id, long now, long limit) {
        DeadLetterRetry retried = run(c -> MaintenanceStatements.retryFailed(c, schema, queue, id, now, limit));
        wakes |= retried == DeadLetterRetry.RETRIED;
        return retried;
    }

    @Override
    public boolean reschedule(String queue, long id, long availableAt, long now) {
        boolean moved = run(c -> MaintenanceStatements.reschedule(c, schema, queue, id, availableAt, now));
        wakes |= moved;
        return moved;
    }

    @Override
    public boolean cancel(String queue, long id) {
        return run(c -> MaintenanceStatements.deleteOne(c, schema, queue, id, RowStatus.READY));
    }

    @Override
    public boolean deleteFailed(String queue, long id) {
        return run(c -> MaintenanceStatements.deleteOne(c, schema, queue, id, RowStatus.FAILED));
    }

    @Override
    public boolean pause(String queue, String by, long now) {
        return run(c -> PauseStatements.pause(c, schema, queue, by, now));
    }

    @Override
    public void setLimits(String queue, LimitChanges changes) {
        run(c -> {
            LimitStatements.set(c, schema, queue, changes);
            return null;
        });
        wakes = true;
    }

    @Override
    public boolean resume(String queue) {
        boolean resumed = run(c -> PauseStatements.resume(c, schema, queue));
        wakes |= resumed;
        return resumed;
    }

    @Override
    public boolean takeTurn(String name, String holder, long now, long until) {
        return run(c -> RetentionStatements.takeTurn(c, schema, name, holder, now, until));
    }

    @Override
    public void finishTurn(String name, String holder, long now, long deleted) {
        run(c -> {
            RetentionStatements.finishTurn(c, schema, name, holder, now, deleted);
            return null;
        });
    }

    @Override
    public int deleteFinished(String queue, int status, long cutoff, int limit) {
        return run(c -> RetentionStatements.deleteFinished(c, schema, queue, status, cutoff, limit));
    }

    @Override
    public int purge(String queue, long cutoff, boolean includeFailed) {
        return run(c -> {
            int deleted = MaintenanceStatements.purge(c, schema, queue, RowStatus.ACKED, cutoff);
            if (includeFailed) {
                deleted += MaintenanceStatements.purge(c, schema, queue, RowStatus.FAILED, cutoff);
            }
            return deleted;
        });
    }

    @Override
    public RecurringWrites recurring() {
        RecurringWrites recurring = recurringWrites;
        if (recurring == null) {
            recurring = new PostgresRecurringWrites(this);
            recurringWrites = recurring;
        }
        return recurring;
    }

    /** The layout holds the bus's tables from its creation. */
    @Override
    public BusWrites bus() {
        BusWrites bus = busWrites;
        if (bus == null) {
            bus = new PostgresBusWrites(this);
            busWrites = bus;
        }
        return bus;
    }

    <R> R run(Work<R> work) {
        return runSettingLockWaitLater(c -> {
            setLockWait(c);
            return work.run(c);
        });
    }

    /** Runs a transition that sets the transaction's lock wait itself ({@link #setLockWait}) where it may wait. */
    private <R> R runSettingLockWaitLater(Work<R> work) {
        try {
            return work.run(connection);
        } catch (SQLException failure) {
            throw PostgresErrors.wrap("writing to schema " + schema, failure);
        }
    }

    /** Sets the transaction's lock wait on the connection, the first time only; nothing when it has none to set. */
    private @Nullable Object setLockWait(Connection c) throws SQLException {
        Work<?> pending = lockWait;
        lockWait = null;
        return pending == null ? null : pending.run(c);
    }
}
