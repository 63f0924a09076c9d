package io.localqueue;

/**
 * Thrown when an identity already stored in a queue carries a different payload fingerprint; the whole write rolls back.
 *
 * @since 0.1.0
 */
public class DeduplicationConflictException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public DeduplicationConflictException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public DeduplicationConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
