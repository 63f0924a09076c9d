package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteException;

/**
 * Classifies SQLite failures: lock contention (retryable) versus everything else (surfaced with SQLite's words).
 */
final class SqliteErrors {

    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;

    private SqliteErrors() {
    }

    /**
     * Tells whether a failure, or any of its causes, is SQLite lock contention ({@code SQLITE_BUSY}, its extended
     * codes such as {@code BUSY_SNAPSHOT}, or {@code SQLITE_LOCKED}).
     *
     * @param failure the failure to inspect
     * @return true when retrying the whole transaction may succeed
     */
    public static boolean isBusy(@Nullable Throwable failure) {
        SQLiteException sqlite = find(failure);
        if (sqlite == null) {
            return false;
        }
        int primary = sqlite.getResultCode().code & 0xff;
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
    }

    /**
     * Tells whether SQLite raised a failure or one of its causes, as opposed to the library's own checks.
     *
     * @param failure the failure to inspect
     * @return true when a SQLite error is among its causes
     */
    public static boolean fromSqlite(@Nullable Throwable failure) {
        return find(failure) != null;
    }

    /**
     * Wraps a failure in a {@link LocalQueueException} whose message carries SQLite's own words; a localqueue
     * failure is returned as it is.
     *
     * @param action what was being done, such as "writing to /data/localqueue.db"
     * @param failure the failure
     * @return the exception to throw
     */
    public static LocalQueueException wrap(String action, Throwable failure) {
        if (failure instanceof LocalQueueException localQueue) {
            return localQueue;
        }
        SQLiteException sqlite = find(failure);
        String words = sqlite != null ? sqlite.getMessage() : failure.getMessage();
        return new LocalQueueException(action + " failed: " + words, failure);
    }

    private static @Nullable SQLiteException find(@Nullable Throwable failure) {
        Throwable current = failure;
        for (int depth = 0; current != null && depth < 16; depth++) {
            if (current instanceof SQLiteException sqlite) {
                return sqlite;
            }
            current = current.getCause();
        }
        return null;
    }
}
