package io.localqueue.internal.store.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * Runs statements on a connection the caller owns, inside the transaction the caller holds open on it: the
 * connection must reach this file and have auto-commit off. The statements are prepared for this one call and
 * closed afterwards; the connection stays open, and nothing here commits or rolls back.
 */
final class CallerTransaction {

    private CallerTransaction() {
    }

    /**
     * Runs {@code work} on the caller's connection, within the caller's transaction.
     *
     * @param connection the caller's connection
     * @param file the database file it must reach
     * @param work the statements
     * @param <R> the result type
     * @return what {@code work} returned; nothing is committed yet
     * @throws IllegalArgumentException when the connection is not a SQLite connection to {@code file} with
     *                                  auto-commit off
     * @throws SQLException when SQLite fails
     */
    public static <R> R run(Connection connection, Path file, SessionWork<R> work) throws SQLException {
        requireSameFile(connection, file);
        if (connection.getAutoCommit()) {
            throw new IllegalArgumentException("connection to " + file + " is in auto-commit mode, so its writes "
                    + "would commit one by one and at once; open a transaction on it first (auto-commit off)");
        }
        Session borrowed = new Session(connection);
        try {
            return work.run(borrowed);
        } finally {
            borrowed.closeStatements();
        }
    }

    private static void requireSameFile(Connection connection, Path file) {
        String reached;
        try {
            reached = mainFile(connection);
        } catch (SQLException notSqlite) {
            throw new IllegalArgumentException("connection is not a SQLite connection to " + file + ": "
                    + notSqlite.getMessage(), notSqlite);
        }
        if (reached == null || reached.isEmpty() || !sameFile(Path.of(reached), file)) {
            throw new IllegalArgumentException("connection reaches " + (reached == null || reached.isEmpty()
                    ? "a temporary or in-memory database" : reached) + ", not the queue's file " + file);
        }
    }

    /** Returns the file of the connection's main database, as SQLite names it, or null when it names none. */
    private static @Nullable String mainFile(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA database_list")) {
            while (rows.next()) {
                if ("main".equals(rows.getString("name"))) {
                    return rows.getString("file");
                }
            }
            return null;
        }
    }

    private static boolean sameFile(Path reached, Path file) {
        try {
            return Files.isSameFile(reached, file);
        } catch (IOException | SecurityException unreadable) {
            return false;
        }
    }
}
