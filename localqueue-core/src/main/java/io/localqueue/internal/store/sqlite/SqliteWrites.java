package io.localqueue.internal.store.sqlite;

import io.localqueue.JobOutcome;
import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.sqlite.SessionWork;
import io.localqueue.internal.sqlite.SqliteErrors;
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
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The queue's transitions on the writer session of one write transaction; SQLite failures leave as
 * {@link io.localqueue.LocalQueueException} with SQLite's words, lock contention included, which the writer
 * recognises and retries.
 */
final class SqliteWrites implements QueueWrites {

    private final Session session;
    private final Path file;
    private final LiveProcesses live;

    SqliteWrites(Session session, Path file, LiveProcesses live) {
        this.session = session;
        this.file = file;
        this.live = live;
    }

    @Override
    public Enqueued enqueue(String queue, List<NewJob> jobs, int maxAttempts, long now, long limit) {
        return run(writer -> EnqueueStatements.insert(writer, queue, jobs, maxAttempts, now, limit));
    }

    @Override
    public ClaimBatch claim(String queue, long now, long leaseUntil, int limit, boolean lookForExpired,
                            int budget) {
        ClaimBatch batch = run(writer -> ClaimStatements.claim(writer, queue, now, leaseUntil, limit, lookForExpired,
                budget, live.holder()));
        live.claimed(batch.rows().size(), leaseUntil - now);
        return batch;
    }

    @Override
    public List<ExpiredLease> reclaimExpired(String queue, long now) {
        return run(writer -> ClaimStatements.reclaim(writer, queue, now));
    }

    @Override
    public List<ExpiredLease> reclaimAbandoned(String queue, List<String> holders, long now, int budget) {
        return run(writer -> ClaimStatements.reclaimAbandoned(writer, queue, holders, now, budget));
    }

    @Override
    public FencedResults settle(List<Settlement> settlements, List<Renewal> renewals) {
        for (Renewal renewal : renewals) {
            live.heldFor(renewal.leaseUntil() - renewal.now());
        }
        FencedResults results = run(writer -> LeaseStatements.settle(writer, settlements, renewals));
        for (int i = 0; i < settlements.size(); i++) {
            if (results.outcomes().get(i) != JobOutcome.DISCARDED) {
                live.settled(settlements.get(i).receipt());
            }
        }
        return results;
    }

    @Override
    public DeadLetterRetry retryFailed(String queue, long id, long now, long limit) {
        return run(writer -> MaintenanceStatements.retryFailed(writer, queue, id, now, limit));
    }

    @Override
    public int purge(String queue, long cutoff, boolean includeFailed) {
        return run(writer -> {
            int deleted = MaintenanceStatements.purge(writer, queue, Schema.STATUS_ACKED, cutoff);
            if (includeFailed) {
                deleted += MaintenanceStatements.purge(writer, queue, Schema.STATUS_FAILED, cutoff);
            }
            return deleted;
        });
    }

    @Override
    public void createBusTables() {
        run(writer -> {
            BusSchema.create(writer);
            return null;
        });
    }

    @Override
    public Delivered deliver(List<Delivery> deliveries, long now, long limit) {
        return run(writer -> FanOutStatements.deliver(writer, deliveries, now, limit));
    }

    @Override
    public @Nullable StoredCheckpoint checkpoint(String bus, String name) {
        return run(writer -> CheckpointStatements.read(writer, bus, name));
    }

    @Override
    public @Nullable StoredCheckpoint advanceCheckpoint(String bus, String name, @Nullable StoredCheckpoint expected,
                                                        String cursor, @Nullable String fingerprint, long items,
                                                        long now) {
        return run(writer -> CheckpointStatements.advance(writer, bus, name, expected, cursor, fingerprint, items,
                now));
    }

    @Override
    public boolean deleteCheckpoint(String bus, String name) {
        return run(writer -> CheckpointStatements.delete(writer, bus, name));
    }

    @Override
    public void linkDeliveries(long parentId, List<Long> childIds) {
        run(writer -> {
            FanOutStatements.link(writer, parentId, childIds);
            return null;
        });
    }

    @Override
    public @Nullable StoredExecution openExecution(String bus, String sourceName, String checkpoint,
                                                   String fingerprint, @Nullable String checkpointGeneration,
                                                   String newId, long now) {
        return run(writer -> ExecutionStatements.open(writer, bus, sourceName, checkpoint, fingerprint,
                checkpointGeneration, newId, now));
    }

    @Override
    public SourceClaim claimSource(String executionId, String receipt, long now, long leaseUntil) {
        return run(writer -> ExecutionStatements.claimSource(writer, executionId, receipt, now, leaseUntil));
    }

    @Override
    public boolean holdsSource(String executionId, String receipt, long now) {
        return run(writer -> ExecutionStatements.holdsSource(writer, executionId, receipt, now));
    }

    @Override
    public void recordExecutionBatch(ExecutionBatch batch, long now) {
        run(writer -> {
            ExecutionStatements.recordBatch(writer, batch, now);
            return null;
        });
    }

    @Override
    public boolean completeSource(String executionId, String receipt, long now) {
        return run(writer -> ExecutionStatements.completeSource(writer, executionId, receipt, now));
    }

    @Override
    public void releaseSource(String executionId, String receipt) {
        run(writer -> {
            ExecutionStatements.releaseSource(writer, executionId, receipt);
            return null;
        });
    }

    @Override
    public StoredExecution settleExecution(String executionId, long now) {
        return run(writer -> ExecutionStatements.settle(writer, executionId, now));
    }

    @Override
    public ExecutionDeletion deleteExecution(String bus, String executionId, long completedBefore, long now,
                                             int limit) {
        return run(writer -> ExecutionStatements.delete(writer, bus, executionId, completedBefore, now, limit));
    }

    private <R> R run(SessionWork<R> statements) {
        try {
            return statements.run(session);
        } catch (SQLException failure) {
            throw SqliteErrors.wrap("writing to " + file, failure);
        }
    }
}
