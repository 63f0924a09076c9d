package io.localqueue.bus;

import static io.localqueue.bus.ExecutionIds.uuid;

import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.ExecutionBatch;
import io.localqueue.internal.store.NewExecution;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.SourceClaim;
import io.localqueue.internal.store.StoredCheckpoint;
import io.localqueue.internal.store.StoredExecution;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * One call of {@link EventBus#execute}: opens (or resumes) the execution of a source definition, ingests its source
 * under a fenced source lease renewed by a heartbeat (unless another process holds it, whose progress it then
 * waits for), and waits until the source is done and none of the execution's deliveries is ready or leased.
 */
final class Execution<T> {

    private static final Logger log = BusRuntime.LOG;

    /** How often a waiting caller looks at the execution again. */
    static final long POLL_MILLIS = 50;

    /** How often a running execution logs where it stands; tests of the package shorten it. */
    static volatile Duration progressInterval = Duration.ofSeconds(10);

    private final BusRuntime bus;
    private final Dispatcher dispatcher;
    private final BusConsumers runner;
    private final SourceSpec<T> definition;
    private final @Nullable Duration timeout;
    private final long deadlineNanos;
    private final String receipt = UUID.randomUUID().toString();
    /** The execution's id and whether it was resumed, once it is open. */
    private volatile @Nullable String openedId;
    private volatile boolean resumedCall;
    private volatile boolean stopRequested;

    Execution(Dispatcher dispatcher, BusConsumers runner, SourceSpec<T> definition, @Nullable Duration timeout) {
        this.bus = dispatcher.runtime();
        this.dispatcher = dispatcher;
        this.runner = runner;
        this.definition = definition;
        this.timeout = timeout;
        this.deadlineNanos = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
    }

    ExecutionResult run() {
        String fingerprint = definition.source().fingerprint();
        if (fingerprint == null || fingerprint.isBlank()) {
            throw new IllegalArgumentException("source " + definition.source() + " has no fingerprint; an execution "
                    + "resumes only a source it can recognise (give SequenceSource.of(items, fingerprint))");
        }
        definition.config().freeze();
        String newId = ExecutionIds.next();
        StoredExecution opened = bus.write("open an execution", writes -> open(writes, fingerprint, newId));
        boolean resumed = !opened.executionId().equals(newId);
        String id = opened.executionId();
        resumedCall = resumed;
        openedId = id;
        if (resumed) {
            log.info("Execution {} of '{}' resumes after {} committed items{}", uuid(id), definition.name(),
                    opened.itemsCommitted(), opened.sourceCompletedAt() == null ? ""
                            : " (its source is done; it waits for its deliveries)");
        } else {
            log.info("Execution {} of '{}' begins", uuid(id), definition.name());
        }
        runner.acquireRunner();
        boolean completed = false;
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "localqueue-bus-execution-progress-" + id);
            thread.setDaemon(true);
            return thread;
        });
        long every = progressInterval.toMillis();
        progress.scheduleWithFixedDelay(() -> logProgress(id), every, every, TimeUnit.MILLISECONDS);
        try {
            if (opened.sourceCompletedAt() == null) {
                ingestSource(id);
            }
            awaitSettled(id);
            ExecutionResult result = result(bus.write("complete an execution",
                    writes -> writes.bus().settleExecution(id, bus.now())), resumed);
            completed = true;
            log.info("Execution {} of '{}' completed: {} items, deliveries {} acknowledged, {} failed", uuid(id),
                    definition.name(), result.itemsCommitted(), result.deliveriesAcknowledged(),
                    result.deliveriesFailed());
            return result;
        } finally {
            progress.shutdownNow();
            runner.releaseRunner(completed);
        }
    }

    private StoredExecution open(QueueWrites writes, String fingerprint, String newId) {
        StoredCheckpoint checkpoint = writes.bus().checkpoint(bus.name(), definition.checkpoint());
        if (checkpoint != null && !fingerprint.equals(checkpoint.sourceFingerprint())) {
            throw Ingestion.sourceChanged(bus.name(), definition.checkpoint(), checkpoint.sourceFingerprint(), fingerprint);
        }
        StoredExecution execution = writes.bus().openExecution(new NewExecution(bus.name(), definition.name(),
                definition.checkpoint(), fingerprint, checkpoint == null ? null : checkpoint.generation(), newId,
                bus.now()));
        if (execution == null) {
            long items = checkpoint == null ? 0 : checkpoint.itemsCommitted();
            throw new LocalQueueException("checkpoint '" + definition.checkpoint() + "' of bus '" + bus.name()
                    + "' stands after " + items + " items of its source, but no execution owns it: its execution "
                    + "completed and was deleted, or an ingestion outside any execution moved it. Reset it "
                    + "(checkpoint(name).reset()) to execute the source again from its start; identities then "
                    + "deduplicate only against the deliveries still stored");
        }
        return execution;
    }

    /** Ingests the source while this call holds the source lease; waits while another holder makes progress. */
    private void ingestSource(String id) {
        boolean told = false;
        SourceClaim claim;
        while ((claim = claim(id)) != SourceClaim.TAKEN) {
            if (claim == SourceClaim.SOURCE_DONE) {
                return;
            }
            if (!told) {
                told = true;
                log.info("Execution {} of '{}': another process holds its source (or held it and stopped); waiting "
                        + "until that process finishes the source or its lease of at most {} runs out", uuid(id),
                        definition.name(), bus.executionLease());
            }
            pauseOrTimeOut(id);
        }
        if (told) {
            log.info("Execution {} of '{}' took over its source and resumes after the last committed batch", uuid(id),
                    definition.name());
        }
        long renewMillis = Math.max(1, bus.executionLease().toMillis() / 3);
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "localqueue-bus-execution-heartbeat-" + id);
            thread.setDaemon(true);
            return thread;
        });
        heartbeat.scheduleWithFixedDelay(() -> renew(id), renewMillis, renewMillis, TimeUnit.MILLISECONDS);
        try {
            Ingestion<T> ingestion = Ingestion.resumable(dispatcher, definition.source(), definition.checkpoint(),
                    definition.transform(), definition.config().batchSize(), definition.config().maxPending(),
                    new Membership(id), this::mustEnd);
            try {
                ingestion.run();
            } catch (Ingestion.IngestionStopped stopped) {
                throw ended(id);
            }
            if (ingestion.stopped()) {
                throw ended(id);
            }
            boolean completed = bus.write("complete an execution's source",
                    writes -> writes.bus().completeSource(id, receipt, bus.now()));
            if (!completed) {
                throw leaseLost(id);
            }
        } finally {
            heartbeat.shutdownNow();
            try {
                bus.write("release an execution's source", writes -> {
                    writes.bus().releaseSource(id, receipt);
                    return null;
                });
            } catch (RuntimeException failure) {
                log.warn("Releasing the source lease of execution {} failed; it frees itself when it expires", uuid(id),
                        failure);
            }
        }
    }

    /**
     * Asks the call to end at its next batch or poll: it releases its source lease and throws
     * {@link ExecutionStoppedException}; what it committed stays.
     */
    void requestStop() {
        stopRequested = true;
    }

    /** Tells whether this call runs the execution with a stored id. */
    boolean runs(String executionId) {
        return executionId.equals(openedId);
    }

    /** Reads where the execution stands now; null until it is open. */
    @Nullable ExecutionResult progress() {
        String id = openedId;
        if (id == null) {
            return null;
        }
        return result(bus.write("read an execution", writes -> writes.bus().settleExecution(id, bus.now())),
                resumedCall);
    }

    /** Logs where the execution stands: one line per interval, never one per item. */
    private void logProgress(String id) {
        try {
            ExecutionResult now = java.util.Objects.requireNonNull(progress());
            log.info("Execution {} of '{}': {} items committed{}, deliveries {} acknowledged, {} failed, {} ready, "
                    + "{} in progress", uuid(id), definition.name(), now.itemsCommitted(),
                    now.sourceCompleted() ? " (source done)" : "", now.deliveriesAcknowledged(),
                    now.deliveriesFailed(), now.deliveriesReady(), now.deliveriesProcessing());
        } catch (RuntimeException failure) {
            log.debug("Reading the progress of execution {} failed", uuid(id), failure);
        }
    }

    private SourceClaim claim(String id) {
        long now = bus.now();
        return bus.write("claim an execution's source",
                writes -> writes.bus().claimSource(id, receipt, now, now + bus.executionLease().toMillis()));
    }

    private void renew(String id) {
        try {
            if (claim(id) != SourceClaim.TAKEN) {
                log.warn("Execution {} lost its source lease; its next batch will be refused", uuid(id));
            }
        } catch (RuntimeException failure) {
            log.warn("Renewing the source lease of execution {} failed; trying again at the next heartbeat", uuid(id),
                    failure);
        }
    }

    private void awaitSettled(String id) {
        while (bus.executionPending(id)) {
            pauseOrTimeOut(id);
        }
    }

    private void pauseOrTimeOut(String id) {
        if (mustEnd()) {
            throw ended(id);
        }
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LocalQueueException("interrupted while execution " + id + " ran");
        }
    }

    private boolean mustEnd() {
        return stopRequested || System.nanoTime() - deadlineNanos >= 0;
    }

    /** The end of a call told to stop, or past its timeout. */
    private LocalQueueException ended(String id) {
        if (stopRequested) {
            logProgress(id);
            log.info("Execution {} of '{}' stopped with the event bus: it releases its source lease, and the next "
                    + "execute resumes it after the last committed batch", uuid(id), definition.name());
            return new ExecutionStoppedException(uuid(id));
        }
        return new ExecutionTimeoutException(uuid(id), java.util.Objects.requireNonNull(timeout));
    }

    private LocalQueueException leaseLost(String id) {
        return new LocalQueueException("execution " + id + " lost its source lease to another process; what it "
                + "committed stays, and that process goes on");
    }

    private ExecutionResult result(StoredExecution execution, boolean resumed) {
        return new ExecutionResult(uuid(execution.executionId()), resumed, execution.sourceName(),
                execution.checkpointName(), execution.sourceFingerprint(), execution.checkpointGeneration(),
                execution.sourceCompletedAt() != null, ExecutionSummary.instant(execution.sourceCompletedAt()),
                ExecutionSummary.instant(execution.completedAt()), Instant.ofEpochMilli(execution.createdAt()),
                Instant.ofEpochMilli(execution.updatedAt()), execution.itemsCommitted(), execution.eventsDispatched(),
                execution.eventsUnrouted(), execution.deliveriesInserted(), execution.deliveriesDeduplicated(),
                execution.batchesCommitted(), execution.ready() + execution.processing() + execution.acknowledged()
                + execution.failed(), execution.ready(), execution.processing(), execution.acknowledged(),
                execution.failed());
    }

    /** Fences each batch by the source lease and makes its deliveries members of the execution. */
    private final class Membership implements Ingestion.BatchHook {
        private final String id;

        Membership(String id) {
            this.id = id;
        }

        @Override
        public void before(QueueWrites writes, long now) {
            if (!writes.bus().holdsSource(id, receipt, now)) {
                throw leaseLost(id);
            }
        }

        @Override
        public void after(QueueWrites writes, Fanout.Plan plan, Delivered delivered,
                          @Nullable StoredCheckpoint checkpoint, long items, long now) {
            long inserted = delivered.inserted().stream().filter(Boolean::booleanValue).count();
            writes.bus().recordExecutionBatch(new ExecutionBatch(id, checkpoint == null ? null : checkpoint.generation(),
                    delivered.ids(), items, plan.routedEvents(), plan.unrouted().size(), inserted,
                    delivered.inserted().size() - inserted), now);
        }
    }
}
