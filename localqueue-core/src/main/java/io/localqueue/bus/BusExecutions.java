package io.localqueue.bus;

import io.localqueue.internal.store.ExecutionRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The executions of a bus's source definitions that calls in this process run, and the deletion of complete ones:
 * a stop ends the running ones first, and an execution a call here runs is never deleted under it.
 */
final class BusExecutions {

    private final Dispatcher dispatcher;
    private final BusConsumers runner;
    private final Set<Execution<?>> running = ConcurrentHashMap.newKeySet();
    private final ExecutionDeletions deletions;

    BusExecutions(Dispatcher dispatcher, BusConsumers runner) {
        this.dispatcher = dispatcher;
        this.runner = runner;
        this.deletions = new ExecutionDeletions(dispatcher.runtime(), this::runsHere);
    }

    /** Runs a definition's execution on the calling thread until it completes, fails, stops or times out. */
    ExecutionResult run(SourceSpec<?> definition, @Nullable Duration timeout) {
        dispatcher.runtime().ensureOpen();
        Execution<?> execution = new Execution<>(dispatcher, runner, definition, timeout);
        running.add(execution);
        try {
            return execution.run();
        } finally {
            running.remove(execution);
        }
    }

    /** Reads where each running execution stands; one not yet open is left out. */
    List<ExecutionResult> progress() {
        List<ExecutionResult> progress = new ArrayList<>();
        for (Execution<?> execution : running) {
            ExecutionResult now = execution.progress();
            if (now != null) {
                progress.add(now);
            }
        }
        return progress;
    }

    /** Lists the stored executions of the bus, oldest first. */
    List<ExecutionSummary> summaries() {
        return dispatcher.runtime().storedExecutions().stream().map(BusExecutions::summary).toList();
    }

    /** The summary of a listed execution. */
    private static ExecutionSummary summary(ExecutionRow row) {
        return new ExecutionSummary(ExecutionIds.uuid(row.executionId()), row.sourceName(), row.checkpointName(),
                ExecutionSummary.instant(row.sourceCompletedAt()), ExecutionSummary.instant(row.completedAt()),
                Instant.ofEpochMilli(row.createdAt()), Instant.ofEpochMilli(row.updatedAt()), row.itemsCommitted(),
                row.deliveriesInserted(), row.deliveriesDeduplicated());
    }

    /** Asks every execution running here to end, and waits for their calls to return, until the deadline. */
    void endAll(long deadlineNanos) {
        if (running.isEmpty()) {
            return;
        }
        running.forEach(Execution::requestStop);
        try {
            while (!running.isEmpty() && System.nanoTime() - deadlineNanos < 0) {
                Thread.sleep(10);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    boolean delete(UUID executionId) {
        dispatcher.runtime().ensureOpen();
        return deletions.delete(executionId);
    }

    int deleteCompleted(Duration olderThan) {
        dispatcher.runtime().ensureOpen();
        return deletions.deleteCompleted(olderThan);
    }

    /** Tells whether a call of {@code execute} in this process runs the execution with a stored id. */
    private boolean runsHere(String executionId) {
        return running.stream().anyMatch(execution -> execution.runs(executionId));
    }
}
