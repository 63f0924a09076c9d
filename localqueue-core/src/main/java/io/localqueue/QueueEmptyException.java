package io.localqueue;

/**
 * Thrown when no job could be claimed before the timeout, at once by {@code getNowait()}, or when the database is momentarily locked by another writer during a non-blocking claim.
 *
 * @since 0.1.0
 */
public class QueueEmptyException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public QueueEmptyException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public QueueEmptyException(String message, Throwable cause) {
        super(message, cause);
    }
}
