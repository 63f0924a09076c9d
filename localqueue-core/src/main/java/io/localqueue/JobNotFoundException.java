package io.localqueue;

/**
 * Thrown when a message id does not name a row of this queue in the state the operation needs.
 *
 * @since 0.1.0
 */
public class JobNotFoundException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public JobNotFoundException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public JobNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
