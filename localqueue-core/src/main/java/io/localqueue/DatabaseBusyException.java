package io.localqueue;

import java.time.Duration;

/**
 * Thrown when another connection kept the database's write lock for longer than a write was allowed to wait; the
 * message carries the database's own words and {@link #waited()} how long this call waited. Nothing was written.
 *
 * @since 0.1.0
 */
public class DatabaseBusyException extends LocalQueueException {

    private final Duration waited;

    /**
     * Creates the exception.
     *
     * @param message what was locked, for how long, and the database's own words
     * @param waited how long the call waited before giving up
     * @param cause the database's last busy failure
     */
    public DatabaseBusyException(String message, Duration waited, Throwable cause) {
        super(message, cause);
        this.waited = waited;
    }

    /**
     * Returns how long the call waited for the write lock before it gave up; zero for a call that never waits.
     *
     * @return the time waited
     */
    public Duration waited() {
        return waited;
    }
}
