package io.localqueue.spring.actuate;

import io.localqueue.bus.EventBus;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What an operator may do to an execution of the event bus through the endpoint: delete a complete one, so that a
 * purge of its subscriptions may delete its deliveries.
 *
 * @since 0.1.0
 */
public final class ExecutionActions {

    private ExecutionActions() {
    }

    /**
     * Deletes a complete execution.
     *
     * @param bus the application's event bus
     * @param executionId the execution's id, as the endpoint lists it
     * @return what happened; an id that is not a UUID, an execution the bus does not have, and one that is not
     *         complete are reported in the outcome, not thrown
     */
    static DeletionDescriptor delete(EventBus bus, String executionId) {
        UUID id;
        try {
            id = UUID.fromString(executionId);
        } catch (IllegalArgumentException notAnId) {
            return new DeletionDescriptor(executionId, DeletionOutcome.INVALID_ID,
                    "'" + executionId + "' is not an execution id (a UUID)");
        }
        try {
            return bus.deleteExecution(id)
                    ? new DeletionDescriptor(executionId, DeletionOutcome.DELETED, "deleted: a purge of its "
                            + "subscriptions may now delete its acknowledged deliveries and dead letters")
                    : new DeletionDescriptor(executionId, DeletionOutcome.UNKNOWN_EXECUTION,
                            "the event bus '" + bus.name() + "' has no execution " + id);
        } catch (IllegalStateException incomplete) {
            return new DeletionDescriptor(executionId, DeletionOutcome.NOT_COMPLETE, incomplete.getMessage());
        }
    }

    /**
     * The outcome of a deletion.
     *
     * @param executionId the execution's id, as given
     * @param deleted whether it was deleted
     * @param outcome why it was or was not
     * @param message what happened, in words
     *
     * @since 0.1.0
     */
    public record DeletionDescriptor(String executionId, boolean deleted, DeletionOutcome outcome,
                                     @Nullable String message) {

        /**
         * Creates the descriptor of an outcome; {@code deleted} is true for {@link DeletionOutcome#DELETED} only.
         *
         * @param executionId the execution's id, as given
         * @param outcome what happened
         * @param message what happened, in words
         * @since 0.1.0
         */
        public DeletionDescriptor(String executionId, DeletionOutcome outcome, @Nullable String message) {
            this(executionId, outcome == DeletionOutcome.DELETED, outcome, message);
        }
    }

    /**
     * What became of a deletion; over HTTP each has its status.
     *
     * @since 0.1.0
     */
    public enum DeletionOutcome {

        /** The execution is deleted; its deliveries and dead letters stay until purged (200). */
        DELETED,

        /** The event bus has no execution with that id: never stored, or deleted already (404). */
        UNKNOWN_EXECUTION,

        /** Its source is still being read, or some of its deliveries are ready or in progress: it stays (409). */
        NOT_COMPLETE,

        /** The id is not a UUID (400). */
        INVALID_ID
    }
}
