package io.localqueue;

/**
 * Thrown by every operation on a queue after {@code close()}, including waits that were in progress when it closed.
 *
 * @since 0.1.0
 */
public class QueueClosedException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public QueueClosedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public QueueClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
