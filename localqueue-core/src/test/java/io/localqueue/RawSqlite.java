package io.localqueue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes a SQLite file with plain JDBC, beside the queue, so a test can inspect exactly what is stored or
 * build what the queue would never write itself. Each call uses its own short-lived connection.
 */
final class RawSqlite {

    private RawSqlite() {
    }

    static Connection connect(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    /** Returns every row of a query, each as a list of column values; blobs become hex text so rows compare by value. */
    static List<List<@Nullable Object>> rows(Path file, String sql, Object... parameters)
            throws SQLException {
        try (Connection connection = connect(file)) {
            return rows(connection, sql, parameters);
        }
    }

    static List<List<@Nullable Object>> rows(Connection connection, String sql, Object... parameters)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                List<List<@Nullable Object>> result = new ArrayList<>();
                while (rows.next()) {
                    List<@Nullable Object> row = new ArrayList<>(columns);
                    for (int column = 1; column <= columns; column++) {
                        Object value = rows.getObject(column);
                        row.add(value instanceof byte[] bytes ? "x'" + HexFormat.of().formatHex(bytes) + "'" : value);
                    }
                    result.add(row);
                }
                return result;
            }
        }
    }

    /** Returns the first column of the only row of a query. */
    static @Nullable Object value(Path file, String sql, Object... parameters) throws SQLException {
        List<List<@Nullable Object>> rows = rows(file, sql, parameters);
        if (rows.size() != 1) {
            throw new IllegalStateException(sql + " returned " + rows.size() + " rows");
        }
        return rows.get(0).get(0);
    }

    /** Runs statements in order, outside any transaction. */
    static void execute(Path file, String... statements) throws SQLException {
        try (Connection connection = connect(file); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** Every column of every {@code messages} row, in id order. */
    static List<List<@Nullable Object>> messages(Path file) throws SQLException {
        return rows(file, "SELECT * FROM messages ORDER BY id");
    }
}
