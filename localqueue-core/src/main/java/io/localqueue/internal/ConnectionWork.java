package io.localqueue.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work on a borrowed JDBC connection.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface ConnectionWork<R> {

    /**
     * Does the work; the connection goes back to its pool afterwards and must not be kept.
     *
     * @param connection the borrowed connection, in autocommit mode
     * @return the result
     * @throws SQLException when SQLite fails
     */
    R run(Connection connection) throws SQLException;
}
