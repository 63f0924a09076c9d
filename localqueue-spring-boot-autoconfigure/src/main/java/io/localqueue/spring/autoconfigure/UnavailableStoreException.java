package io.localqueue.spring.autoconfigure;

import io.localqueue.LocalQueueException;

/**
 * The database localqueue is configured to keep its queues in could not be opened at start: what the store said,
 * and which settings name the database.
 */
final class UnavailableStoreException extends RuntimeException {

    private final String action;

    UnavailableStoreException(String where, String action, LocalQueueException cause) {
        super("localqueue could not open its queues in " + where + ": " + cause.getMessage(), cause);
        this.action = action;
    }

    String action() {
        return action;
    }
}
