package io.localqueue;

/**
 * Thrown when an ingestion checkpoint was changed by another writer since it was read; the batch that carried it rolls back.
 *
 * @since 0.1.0
 */
public class CheckpointConflictException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public CheckpointConflictException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public CheckpointConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
