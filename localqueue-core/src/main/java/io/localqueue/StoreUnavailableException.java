package io.localqueue;

/**
 * Thrown when the store cannot be reached at all: the database server refused or dropped every connection tried, or
 * no connection of its pool became free before the pool's timeout. Nothing was written, and the same call can
 * succeed once the store is back; a web application answers it with {@code 503 Service Unavailable}.
 *
 * @since 0.1.0
 */
public class StoreUnavailableException extends LocalQueueException {

    /**
     * Creates the exception.
     *
     * @param message what could not be done, and the database's own words on why
     * @param cause the driver's or the pool's failure
     */
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
