package io.localqueue.internal.store.postgresql;

import io.localqueue.JobOutcome;
import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.ExecutionBatch;
import io.localqueue.internal.store.ExecutionDeletion;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.SourceClaim;
import io.localqueue.internal.store.StoredCheckpoint;
import io.localqueue.internal.store.StoredExecution;
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

    /** One statement class's work on the transaction's connection. */
    @FunctionalInterface
    private interface Work<R> {
        R run(Connection connection) throws SQLException;
    }

    private final Connection connection;
    private final String schema;
    private final Supplier<@Nullable String> holder;
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
        this.connection = connection;
        this.schema = schema;
        this.holder = holder;
    }

    /**
     * Tells whether a transition of this transaction gave other hosts' waiters work or room, so that its commit
     * should notify them: new or ready-again rows, or rows settled out of the pending count.
     *
     * @return true when waiters should look again
     */
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
    public ClaimBatch claim(String queue, long now, long leaseUntil, int limit, boolean lookForExpired,
                            int budget) {
        ClaimBatch batch = run(c -> ClaimStatements.claim(c, schema, queue, now, leaseUntil, limit, lookForExpired,
                budget, holder.get()));
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
    public int purge(String queue, long cutoff, boolean includeFailed) {
        return run(c -> {
            int deleted = MaintenanceStatements.purge(c, schema, queue, PostgresSchema.STATUS_ACKED, cutoff);
            if (includeFailed) {
                deleted += MaintenanceStatements.purge(c, schema, queue, PostgresSchema.STATUS_FAILED, cutoff);
            }
            return deleted;
        });
    }

    /** The layout holds the bus's tables from its creation. */
    @Override
    public void createBusTables() {
    }

    @Override
    public Delivered deliver(List<Delivery> deliveries, long now, long limit) {
        Delivered delivered = run(c -> FanOutStatements.deliver(c, schema, deliveries, now, limit));
        wakes |= delivered.inserted().contains(true);
        return delivered;
    }

    @Override
    public @Nullable StoredCheckpoint checkpoint(String bus, String name) {
        return run(c -> CheckpointStatements.read(c, schema, bus, name));
    }

    @Override
    public @Nullable StoredCheckpoint advanceCheckpoint(String bus, String name, @Nullable StoredCheckpoint expected,
                                                        String cursor, @Nullable String fingerprint, long items,
                                                        long now) {
        return run(c -> CheckpointStatements.advance(c, schema, bus, name, expected, cursor, fingerprint, items,
                now));
    }

    @Override
    public boolean deleteCheckpoint(String bus, String name) {
        return run(c -> CheckpointStatements.delete(c, schema, bus, name));
    }

    @Override
    public void linkDeliveries(long parentId, List<Long> childIds) {
        run(c -> {
            FanOutStatements.link(c, schema, parentId, childIds);
            return null;
        });
    }

    @Override
    public @Nullable StoredExecution openExecution(String bus, String sourceName, String checkpoint,
                                                   String fingerprint, @Nullable String checkpointGeneration,
                                                   String newId, long now) {
        return run(c -> ExecutionStatements.open(c, schema, bus, sourceName, checkpoint, fingerprint,
                checkpointGeneration, newId, now));
    }

    @Override
    public SourceClaim claimSource(String executionId, String receipt, long now, long leaseUntil) {
        return run(c -> ExecutionStatements.claimSource(c, schema, executionId, receipt, now, leaseUntil));
    }

    @Override
    public boolean holdsSource(String executionId, String receipt, long now) {
        return run(c -> ExecutionStatements.holdsSource(c, schema, executionId, receipt, now));
    }

    @Override
    public void recordExecutionBatch(ExecutionBatch batch, long now) {
        run(c -> {
            ExecutionStatements.recordBatch(c, schema, batch, now);
            return null;
        });
    }

    @Override
    public boolean completeSource(String executionId, String receipt, long now) {
        return run(c -> ExecutionStatements.completeSource(c, schema, executionId, receipt, now));
    }

    @Override
    public void releaseSource(String executionId, String receipt) {
        run(c -> {
            ExecutionStatements.releaseSource(c, schema, executionId, receipt);
            return null;
        });
    }

    @Override
    public StoredExecution settleExecution(String executionId, long now) {
        return run(c -> ExecutionStatements.settle(c, schema, executionId, now));
    }

    @Override
    public ExecutionDeletion deleteExecution(String bus, String executionId, long completedBefore, long now,
                                             int limit) {
        return run(c -> ExecutionStatements.delete(c, schema, bus, executionId, completedBefore, now, limit));
    }

    private <R> R run(Work<R> work) {
        try {
            return work.run(connection);
        } catch (SQLException failure) {
            throw PostgresErrors.wrap("writing to schema " + schema, failure);
        }
    }
}
