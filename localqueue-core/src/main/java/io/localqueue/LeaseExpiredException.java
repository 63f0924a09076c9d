package io.localqueue;

/**
 * Thrown when a job's lease is no longer held: expired (even if not yet reclaimed), redelivered under a newer receipt, already settled, or the job belongs to another queue.
 *
 * @since 0.1.0
 */
public class LeaseExpiredException extends LocalQueueException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public LeaseExpiredException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public LeaseExpiredException(String message, Throwable cause) {
        super(message, cause);
    }
}
