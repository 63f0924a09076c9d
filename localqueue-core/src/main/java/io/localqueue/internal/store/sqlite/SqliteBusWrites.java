package io.localqueue.internal.store.sqlite;

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
 * The event bus's transitions on the transaction of a {@link SqliteWrites}, through its statement runner.
 */
final class SqliteBusWrites implements BusWrites {

    private final SqliteWrites writes;

    SqliteBusWrites(SqliteWrites writes) {
        this.writes = writes;
    }

    @Override
    public void createBusTables() {
        writes.run(writer -> {
            BusSchema.create(writer);
            return null;
        });
    }

    @Override
    public Delivered deliver(List<Delivery> deliveries, long now, long limit) {
        return writes.run(writer -> FanOutStatements.deliver(writer, deliveries, now, limit));
    }

    @Override
    public @Nullable StoredCheckpoint checkpoint(String bus, String name) {
        return writes.run(writer -> CheckpointStatements.read(writer, bus, name));
    }

    @Override
    public @Nullable StoredCheckpoint advanceCheckpoint(CheckpointAdvance advance) {
        return writes.run(writer -> CheckpointStatements.advance(writer, advance.bus(), advance.name(), advance.expected(),
                advance.cursor(), advance.fingerprint(), advance.items(), advance.now()));
    }

    @Override
    public boolean deleteCheckpoint(String bus, String name) {
        return writes.run(writer -> CheckpointStatements.delete(writer, bus, name));
    }

    @Override
    public void linkDeliveries(long parentId, List<Long> childIds) {
        writes.run(writer -> {
            FanOutStatements.link(writer, parentId, childIds);
            return null;
        });
    }

    @Override
    public @Nullable StoredExecution openExecution(NewExecution execution) {
        return writes.run(writer -> ExecutionStatements.open(writer, execution.bus(), execution.sourceName(),
                execution.checkpoint(), execution.fingerprint(), execution.checkpointGeneration(), execution.newId(),
                execution.now()));
    }

    @Override
    public SourceClaim claimSource(String executionId, String receipt, long now, long leaseUntil) {
        return writes.run(writer -> ExecutionStatements.claimSource(writer, executionId, receipt, now, leaseUntil));
    }

    @Override
    public boolean holdsSource(String executionId, String receipt, long now) {
        return writes.run(writer -> ExecutionStatements.holdsSource(writer, executionId, receipt, now));
    }

    @Override
    public void recordExecutionBatch(ExecutionBatch batch, long now) {
        writes.run(writer -> {
            ExecutionStatements.recordBatch(writer, batch, now);
            return null;
        });
    }

    @Override
    public boolean completeSource(String executionId, String receipt, long now) {
        return writes.run(writer -> ExecutionStatements.completeSource(writer, executionId, receipt, now));
    }

    @Override
    public void releaseSource(String executionId, String receipt) {
        writes.run(writer -> {
            ExecutionStatements.releaseSource(writer, executionId, receipt);
            return null;
        });
    }

    @Override
    public StoredExecution settleExecution(String executionId, long now) {
        return writes.run(writer -> ExecutionStatements.settle(writer, executionId, now));
    }

    @Override
    public ExecutionDeletion deleteExecution(String bus, String executionId, long completedBefore, long now,
                                             int limit) {
        return writes.run(writer -> ExecutionStatements.delete(writer, bus, executionId, completedBefore, now, limit));
    }
}
