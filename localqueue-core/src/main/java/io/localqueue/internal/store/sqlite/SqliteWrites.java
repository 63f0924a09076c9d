package io.localqueue.internal.store.sqlite;

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

    private @Nullable BusWrites busWrites;
    private @Nullable RecurringWrites recurringWrites;

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
    public ClaimBatch claim(ClaimRequest request) {
        ClaimBatch batch = run(writer -> ClaimStatements.claim(writer, request.queue(), request.now(),
                request.leaseUntil(), request.limit(), request.lookForExpired(), request.budget(), live.holder()));
        live.claimed(batch.rows().size(), request.leaseUntil() - request.now());
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
    public boolean reschedule(String queue, long id, long availableAt, long now) {
        return run(writer -> MaintenanceStatements.reschedule(writer, queue, id, availableAt, now));
    }

    @Override
    public boolean cancel(String queue, long id) {
        return run(writer -> MaintenanceStatements.deleteOne(writer, queue, id, RowStatus.READY));
    }

    @Override
    public boolean deleteFailed(String queue, long id) {
        return run(writer -> MaintenanceStatements.deleteOne(writer, queue, id, RowStatus.FAILED));
    }

    @Override
    public boolean pause(String queue, String by, long now) {
        return run(writer -> PauseStatements.pause(writer, queue, by, now));
    }

    @Override
    public boolean resume(String queue) {
        return run(writer -> PauseStatements.resume(writer, queue));
    }

    @Override
    public void setLimits(String queue, LimitChanges changes) {
        run(writer -> {
            LimitStatements.set(writer, queue, changes);
            return null;
        });
    }

    @Override
    public boolean takeTurn(String name, String holder, long now, long until) {
        return run(writer -> RetentionStatements.takeTurn(writer, name, holder, now, until));
    }

    @Override
    public void finishTurn(String name, String holder, long now, long deleted) {
        run(writer -> {
            RetentionStatements.finishTurn(writer, name, holder, now, deleted);
            return null;
        });
    }

    @Override
    public int deleteFinished(String queue, int status, long cutoff, int limit) {
        return run(writer -> RetentionStatements.deleteFinished(writer, queue, status, cutoff, limit));
    }

    @Override
    public int purge(String queue, long cutoff, boolean includeFailed) {
        return run(writer -> {
            int deleted = MaintenanceStatements.purge(writer, queue, RowStatus.ACKED, cutoff);
            if (includeFailed) {
                deleted += MaintenanceStatements.purge(writer, queue, RowStatus.FAILED, cutoff);
            }
            return deleted;
        });
    }

    @Override
    public RecurringWrites recurring() {
        RecurringWrites recurring = recurringWrites;
        if (recurring == null) {
            recurring = new SqliteRecurringWrites(this);
            recurringWrites = recurring;
        }
        return recurring;
    }

    @Override
    public BusWrites bus() {
        BusWrites bus = busWrites;
        if (bus == null) {
            bus = new SqliteBusWrites(this);
            busWrites = bus;
        }
        return bus;
    }

    <R> R run(SessionWork<R> statements) {
        try {
            return statements.run(session);
        } catch (SQLException failure) {
            throw SqliteErrors.wrap("writing to " + file, failure);
        }
    }
}
