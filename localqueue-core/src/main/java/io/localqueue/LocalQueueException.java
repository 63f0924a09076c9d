package io.localqueue;

/**
 * Root of every localqueue failure; SQLite errors beyond the retry budgets surface as this type with SQLite's own words.
 *
 * @since 0.1.0
 */
public class LocalQueueException extends RuntimeException {

    /**
     * Creates the exception with a message that names the problem.
     *
     * @param message what went wrong
     */
    public LocalQueueException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public LocalQueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
