package io.localqueue.internal.store.postgresql;

import io.localqueue.LocalQueueException;
import io.localqueue.StoreUnavailableException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Turns the driver's failures into the store's: what was being done, and PostgreSQL's own words and SQLSTATE. */
final class PostgresErrors {

    /** SQLSTATE of a character the database encoding cannot hold, which PostgreSQL reports for NUL in text. */
    private static final String NUL_IN_TEXT = "22021";

    /**
     * SQLSTATEs, besides the connection exceptions of class 08, of a backend the server ended: an administrator's
     * {@code pg_terminate_backend} or a fast shutdown, a crash of another backend, a server still starting.
     */
    private static final Set<String> BACKEND_ENDED = Set.of("57P01", "57P02", "57P03");

    private PostgresErrors() {
    }

    /**
     * Wraps a failure of the database; the loss of the connection is a {@link StoreUnavailableException}.
     *
     * @param what what the store was doing, such as "writing to schema localqueue"
     * @param failure the driver's exception
     * @return the exception to throw
     */
    static LocalQueueException wrap(String what, SQLException failure) {
        if (NUL_IN_TEXT.equals(failure.getSQLState()) && String.valueOf(failure.getMessage()).contains("0x00")) {
            return new LocalQueueException(what + " failed" + state(failure) + ": PostgreSQL cannot store the NUL "
                    + "character (U+0000) in text, so a queue name, job id, dedup key or other name holding one is "
                    + "refused on PostgreSQL, and nothing was written", failure);
        }
        String message = what + " failed" + state(failure) + ": " + failure.getMessage();
        return connectionLost(failure) ? new StoreUnavailableException(message, failure)
                : new LocalQueueException(message, failure);
    }

    /**
     * Makes free text storable: PostgreSQL's text cannot hold the NUL character, so each one becomes U+FFFD, the
     * replacement character. For words that are not names, such as a handler's error, which must never keep a job
     * from being settled.
     *
     * @param text the text, or null
     * @return the text without NUL characters, or null
     */
    static @Nullable String storable(@Nullable String text) {
        return text == null || text.indexOf('\0') < 0 ? text : text.replace('\0', '\uFFFD');
    }

    /**
     * Wraps the failure of the data source to hand out a connection, saying which of the two usual reasons it was:
     * the server out of reach (the driver's own words on the last attempt to connect follow), or a pool whose every
     * connection stayed in use until its timeout.
     *
     * @param what what the store was about to do
     * @param failure what {@code DataSource.getConnection()} threw
     * @return the exception to throw
     */
    static StoreUnavailableException unavailable(String what, SQLException failure) {
        SQLException lost = connectionFailure(failure);
        String why;
        if (lost != null) {
            why = "the database server cannot be reached" + state(lost) + ": " + lost.getMessage()
                    + (lost == failure ? "" : " (" + failure.getMessage() + ")");
        } else if (failure instanceof SQLTransientConnectionException && failure.getCause() == null) {
            why = "no connection of the data source became free before its timeout; each one was in use: "
                    + failure.getMessage();
        } else {
            why = "the data source gave no connection" + state(failure) + ": " + failure.getMessage();
        }
        return new StoreUnavailableException(what + " failed: " + why, failure);
    }

    /**
     * Wraps the loss of the connection while a transaction's commit was under way: the server may or may not have
     * committed it, and only a read can tell.
     *
     * @param what the transaction, such as "'enqueue' in schema localqueue"
     * @param failure the driver's exception
     * @return the exception to throw
     */
    static LocalQueueException lostInCommit(String what, SQLException failure) {
        return new LocalQueueException("the connection to the database was lost while committing " + what
                + ", so whether it committed is unknown" + state(failure) + ": " + failure.getMessage(), failure);
    }

    /**
     * Tells whether a failure is the loss of the connection it happened on: the server ended its backend or the
     * link broke. PostgreSQL rolls back the open transaction of a backend that ends, so work that failed so before
     * its commit was sent left nothing behind and can run again on another connection.
     *
     * @param failure what a statement, or the work around it, threw
     * @return true when the connection is gone
     */
    static boolean connectionLost(Throwable failure) {
        return connectionFailure(failure) != null;
    }

    /**
     * The deepest failure in the chain that is the loss of a connection (a pool's timeout carries the driver's own
     * failure to connect beneath it), or null.
     */
    private static @Nullable SQLException connectionFailure(Throwable failure) {
        SQLException deepest = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || BACKEND_ENDED.contains(sql.getSQLState()))) {
                deepest = sql;
            }
        }
        return deepest;
    }

    private static String state(SQLException failure) {
        String state = failure.getSQLState();
        return state == null ? "" : " (SQLSTATE " + state + ")";
    }
}
