package io.localqueue;

/**
 * Thrown when the queue stays at its {@code maxPendingJobs} limit for the whole timeout, or at once when a batch could never fit.
 *
 * @since 0.1.0
 */
public class QueueFullException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public QueueFullException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public QueueFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
