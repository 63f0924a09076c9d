package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.BusWrites;
import io.localqueue.internal.store.CheckpointAdvance;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.ExecutionBatch;
import io.localqueue.internal.store.ExecutionDeletion;
import io.localqueue.internal.store.NewExecution;
import io.localqueue.internal.store.SourceClaim;
import io.localqueue.internal.store.StoredCheckpoint;
import io.localqueue.internal.store.StoredExecution;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The event bus's transitions on the transaction of a {@link PostgresWrites}, through its statement runner.
 */
final class PostgresBusWrites implements BusWrites {

    private final PostgresWrites writes;
    private final String schema;

    PostgresBusWrites(PostgresWrites writes) {
        this.writes = writes;
        this.schema = writes.schema();
    }

    @Override
    public void createBusTables() {
    }

    @Override
    public Delivered deliver(List<Delivery> deliveries, long now, long limit) {
        Delivered delivered = writes.run(c -> FanOutStatements.deliver(c, schema, deliveries, now, limit));
        writes.woke(delivered.inserted().contains(true));
        return delivered;
    }

    @Override
    public @Nullable StoredCheckpoint checkpoint(String bus, String name) {
        return writes.run(c -> CheckpointStatements.read(c, schema, bus, name));
    }

    @Override
    public @Nullable StoredCheckpoint advanceCheckpoint(CheckpointAdvance advance) {
        return writes.run(c -> CheckpointStatements.advance(c, schema, advance.bus(), advance.name(), advance.expected(),
                advance.cursor(), advance.fingerprint(), advance.items(), advance.now()));
    }

    @Override
    public boolean deleteCheckpoint(String bus, String name) {
        return writes.run(c -> CheckpointStatements.delete(c, schema, bus, name));
    }

    @Override
    public void linkDeliveries(long parentId, List<Long> childIds) {
        writes.run(c -> {
            FanOutStatements.link(c, schema, parentId, childIds);
            return null;
        });
    }

    @Override
    public @Nullable StoredExecution openExecution(NewExecution execution) {
        return writes.run(c -> ExecutionStatements.open(c, schema, execution.bus(), execution.sourceName(),
                execution.checkpoint(), execution.fingerprint(), execution.checkpointGeneration(), execution.newId(),
                execution.now()));
    }

    @Override
    public SourceClaim claimSource(String executionId, String receipt, long now, long leaseUntil) {
        return writes.run(c -> ExecutionStatements.claimSource(c, schema, executionId, receipt, now, leaseUntil));
    }

    @Override
    public boolean holdsSource(String executionId, String receipt, long now) {
        return writes.run(c -> ExecutionStatements.holdsSource(c, schema, executionId, receipt, now));
    }

    @Override
    public void recordExecutionBatch(ExecutionBatch batch, long now) {
        writes.run(c -> {
            ExecutionStatements.recordBatch(c, schema, batch, now);
            return null;
        });
    }

    @Override
    public boolean completeSource(String executionId, String receipt, long now) {
        return writes.run(c -> ExecutionStatements.completeSource(c, schema, executionId, receipt, now));
    }

    @Override
    public void releaseSource(String executionId, String receipt) {
        writes.run(c -> {
            ExecutionStatements.releaseSource(c, schema, executionId, receipt);
            return null;
        });
    }

    @Override
    public StoredExecution settleExecution(String executionId, long now) {
        return writes.run(c -> ExecutionStatements.settle(c, schema, executionId, now));
    }

    @Override
    public ExecutionDeletion deleteExecution(String bus, String executionId, long completedBefore, long now,
                                             int limit) {
        return writes.run(c -> ExecutionStatements.delete(c, schema, bus, executionId, completedBefore, now, limit));
    }
}
