package io.localqueue.bus;

import static io.localqueue.bus.ExecutionIds.uuid;

import io.localqueue.internal.store.ExecutionDeletion;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.StoredExecution;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Predicate;
import org.slf4j.Logger;

/**
 * Deletes complete executions of a bus in steps, each its own write transaction releasing at most
 * {@link #batchSize} deliveries from the execution, so that deleting an import of a million rows never keeps other
 * writers of the database waiting for long. The last step deletes the execution; its checkpoint, its deliveries and
 * their edges stay, and a purge of its subscriptions may now delete the deliveries.
 */
final class ExecutionDeletions {

    private static final Logger log = BusRuntime.LOG;

    /** How many deliveries one step releases at most; tests of the package lower it. */
    static volatile int batchSize = 5_000;

    private final BusRuntime bus;
    private final Predicate<String> runsHere;

    /**
     * @param runsHere tells whether a call of {@code execute} in this process runs the execution with a stored id
     */
    ExecutionDeletions(BusRuntime bus, Predicate<String> runsHere) {
        this.bus = bus;
        this.runsHere = runsHere;
    }

    /** Deletes one complete execution; false when the bus has none with that id. */
    boolean delete(UUID executionId) {
        String id = ExecutionIds.stored(executionId);
        if (runsHere.test(id)) {
            throw new IllegalStateException("execution " + executionId + " is not complete: a call of execute in "
                    + "this process runs it; delete it once that call has returned");
        }
        ExecutionDeletion deleted = deleteInSteps(id, Long.MAX_VALUE);
        return switch (deleted.step()) {
            case UNKNOWN -> false;
            case INCOMPLETE -> throw incomplete(executionId, java.util.Objects.requireNonNull(deleted.incomplete()));
            default -> true;
        };
    }

    /** Deletes every complete execution of the bus that completed at least {@code olderThan} ago. */
    int deleteCompleted(Duration olderThan) {
        long completedBefore = bus.now() - olderThan.toMillis();
        int deleted = 0;
        for (ExecutionRow row : bus.storedExecutions()) {
            boolean maybeDue = row.completedAt() == null ? row.sourceCompletedAt() != null
                    : row.completedAt() <= completedBefore;
            if (maybeDue && !runsHere.test(row.executionId())
                    && deleteInSteps(row.executionId(), completedBefore).step() == ExecutionDeletion.Step.DELETED) {
                deleted++;
            }
        }
        return deleted;
    }

    private ExecutionDeletion deleteInSteps(String id, long completedBefore) {
        int released = 0;
        int limit = batchSize;
        ExecutionDeletion step;
        do {
            long now = bus.now();
            step = bus.write("delete an execution",
                    writes -> writes.bus().deleteExecution(bus.name(), id, completedBefore, now, limit));
            released += step.released();
        } while (step.step() == ExecutionDeletion.Step.MORE);
        if (step.step() == ExecutionDeletion.Step.DELETED) {
            log.info("Execution {} of bus '{}' deleted: {} deliveries released, which a purge of its subscriptions "
                    + "may now delete", uuid(id), bus.name(), released);
        }
        return step;
    }

    private static IllegalStateException incomplete(UUID executionId, StoredExecution execution) {
        String state = execution.sourceCompletedAt() == null
                ? "its source is still being read (" + execution.itemsCommitted() + " items committed so far)"
                : execution.ready() + " of its deliveries are ready (delayed retries included) and "
                + execution.processing() + " in progress";
        return new IllegalStateException("execution " + executionId + " of checkpoint '"
                + execution.checkpointName() + "' is not complete: " + state + "; delete it once it has completed");
    }
}
