package io.localqueue.internal.engine;

import io.localqueue.JobState;
import io.localqueue.BackupResult;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.QueueLimits;
import io.localqueue.internal.store.QueuePause;
import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.wakeup.Wakeups;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A store that hands every call to a real one, for tests that watch or hold some of them. */
class ForwardingStore implements QueueStore {

    protected final QueueStore target;

    ForwardingStore(QueueStore target) {
        this.target = target;
    }

    @Override
    public <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work) {
        return target.write(options, ensureOpen, work);
    }

    @Override
    public <R> R writeWithin(Connection connection, StoreWork<R> work) {
        return target.writeWithin(connection, work);
    }

    @Override
    public boolean executionPending(String executionId) {
        return target.executionPending(executionId);
    }

    @Override
    public List<ExecutionRow> executions(String bus) {
        return target.executions(bus);
    }

    @Override
    public ClaimProbe probe(String queue) {
        return target.probe(queue);
    }

    @Override
    public @Nullable QueuePause pause(String queue) {
        return target.pause(queue);
    }

    @Override
    public QueueLimits limits(String queue) {
        return target.limits(queue);
    }

    @Override
    public boolean isFull(String queue, long limit) {
        return target.isFull(queue, limit);
    }

    @Override
    public QueueStats stats(String queue) {
        return target.stats(queue);
    }

    @Override
    public List<FailedRow> listFailed(String queue, int limit, int offset) {
        return target.listFailed(queue, limit, offset);
    }

    @Override
    public List<JobRow> listJobs(JobPageRequest request) {
        return target.listJobs(request);
    }

    @Override
    public @Nullable JobRow job(String queue, long id) {
        return target.job(queue, id);
    }

    @Override
    public List<JobRow> jobsPut(String queue, long afterId, long throughId, int limit) {
        return target.jobsPut(queue, afterId, throughId, limit);
    }

    @Override
    public List<JobRow> jobs(String queue, long[] ids) {
        return target.jobs(queue, ids);
    }

    @Override
    public long lastJobId() {
        return target.lastJobId();
    }

    @Override
    public long countJobs(String queue, JobState state, long now, long cap) {
        return target.countJobs(queue, state, now, cap);
    }

    @Override
    public List<ReadyRow> listReady(String queue, int limit, int offset) {
        return target.listReady(queue, limit, offset);
    }

    @Override
    public QueueSnapshot snapshot(String queue, Clock clock) {
        return target.snapshot(queue, clock);
    }

    @Override
    public List<RecurringRow> recurringJobs() {
        return target.recurringJobs();
    }

    @Override
    public List<String> queueNames() {
        return target.queueNames();
    }

    @Override
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        return target.checkIntegrity(mode, maxErrors);
    }

    @Override
    public BackupResult backup(Path destination) {
        return target.backup(destination);
    }

    @Override
    public void vacuum(Runnable ensureOpen) {
        target.vacuum(ensureOpen);
    }

    @Override
    public Wakeups wakeups() {
        return target.wakeups();
    }

    @Override
    public String location() {
        return target.location();
    }

    @Override
    public String engine() {
        return target.engine();
    }

    @Override
    public String engineVersion() {
        return target.engineVersion();
    }

    @Override
    public void close() {
        target.close();
    }
}
