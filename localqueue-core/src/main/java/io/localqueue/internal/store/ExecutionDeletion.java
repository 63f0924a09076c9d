package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * What one step of deleting an event-bus execution did: each step releases a bounded batch of its deliveries from
 * it, and the last one deletes the execution.
 *
 * @param step what happened
 * @param released how many of its deliveries this step released
 * @param incomplete for {@link Step#INCOMPLETE}: the execution with its deliveries counted; else null
 */
public record ExecutionDeletion(Step step, int released, @Nullable StoredExecution incomplete) {

    /** The outcomes of one step. */
    public enum Step {
        /** The bus has no execution with that id: nothing changed. */
        UNKNOWN,
        /** Its source is not read to the end, or a delivery is ready or leased: nothing changed. */
        INCOMPLETE,
        /** It completed after the cutoff: nothing changed (but a completion found now was recorded). */
        RECENT,
        /** A batch of its deliveries was released; more remain. */
        MORE,
        /** Its last deliveries were released and the execution deleted. */
        DELETED
    }

    /**
     * Returns a step that changed nothing.
     *
     * @param step {@link Step#UNKNOWN} or {@link Step#RECENT}
     * @return the step
     */
    public static ExecutionDeletion unchanged(Step step) {
        return new ExecutionDeletion(step, 0, null);
    }

    /**
     * Returns the refusal of an execution that is not complete.
     *
     * @param execution the execution, counted
     * @return the step
     */
    public static ExecutionDeletion incomplete(StoredExecution execution) {
        return new ExecutionDeletion(Step.INCOMPLETE, 0, execution);
    }

    /**
     * Returns a step that released deliveries, and deleted the execution when it released fewer than it could.
     *
     * @param released how many it released
     * @param limit how many it could release
     * @return the step
     */
    public static ExecutionDeletion released(int released, int limit) {
        return new ExecutionDeletion(released < limit ? Step.DELETED : Step.MORE, released, null);
    }
}
