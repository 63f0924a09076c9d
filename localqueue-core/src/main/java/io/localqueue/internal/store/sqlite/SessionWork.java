package io.localqueue.internal.store.sqlite;

import java.sql.SQLException;

/**
 * Work on one session's connection.
 *
 * @param <R> the result type
 */
@FunctionalInterface
interface SessionWork<R> {

    /**
     * Does the work; the session goes back to its owner afterwards and must not be kept.
     *
     * @param session the session
     * @return the result
     * @throws SQLException when SQLite fails
     */
    R run(Session session) throws SQLException;
}
