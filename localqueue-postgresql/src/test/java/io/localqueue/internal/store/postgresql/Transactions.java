package io.localqueue.internal.store.postgresql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Runs statements of the store's in a transaction of the test's, as the store will. */
final class Transactions {

    /** Work on a connection in a transaction. */
    @FunctionalInterface
    interface Work<R> {
        R run(Connection connection) throws SQLException;
    }

    private Transactions() {
    }

    /** Runs work in a transaction on a new connection to the test server, committing it. */
    static <R> R run(Work<R> work) throws SQLException {
        try (Connection connection = PostgresServer.connect()) {
            return run(connection, work);
        }
    }

    /** Runs work in a transaction on a connection of the caller's, committing it, or rolling it back on failure. */
    static <R> R run(Connection connection, Work<R> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            R result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException failure) {
            connection.rollback();
            throw failure;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** Reads the first column of every row a query returns, as text. */
    static List<String> strings(Connection connection, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    /** Runs one statement in a transaction of its own. */
    static void execute(String sql) throws SQLException {
        run(connection -> {
            try (Statement statement = connection.createStatement()) {
                return statement.execute(sql);
            }
        });
    }

    /** Reads the first column of every row a query returns, as text, in a transaction of its own. */
    static List<String> query(String sql) throws SQLException {
        return run(connection -> strings(connection, sql));
    }
}
