package io.localqueue.internal;

import io.localqueue.LocalQueueException;

/**
 * Another connection held SQLite's write lock for longer than a write was allowed to wait.
 */
public final class WriteLockBusyException extends LocalQueueException {

    WriteLockBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
