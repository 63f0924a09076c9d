package io.localqueue.internal.store.postgresql;

import io.localqueue.LocalQueueException;
import java.sql.SQLException;

/** Turns the driver's failures into the store's: what was being done, and PostgreSQL's own words and SQLSTATE. */
final class PostgresErrors {

    private PostgresErrors() {
    }

    /**
     * Wraps a failure of the database.
     *
     * @param what what the store was doing, such as "writing to schema localqueue"
     * @param failure the driver's exception
     * @return the exception to throw
     */
    static LocalQueueException wrap(String what, SQLException failure) {
        String state = failure.getSQLState();
        return new LocalQueueException(what + " failed" + (state == null ? "" : " (SQLSTATE " + state + ")") + ": "
                + failure.getMessage(), failure);
    }
}
