package io.localqueue.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Raw JDBC on a database file, bypassing the library: builds fixtures from SQL scripts and reads rows, schema
 * objects and pragmas so that tests can compare a file before and after the library touched it.
 */
public final class RawSqlite {

    private RawSqlite() {
    }

    /** Opens a plain connection with foreign keys enforced, as the Python library's connections have them. */
    public static Connection connect(Path file) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        execute(connection, "PRAGMA foreign_keys = ON");
        return connection;
    }

    /** Runs a semicolon-separated SQL script from the test resources; {@code --} comment lines are skipped. */
    public static void runScript(Connection connection, String resource) throws SQLException {
        StringBuilder sql = new StringBuilder();
        for (String line : readResource(resource).split("\n")) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        for (String statement : sql.toString().split(";")) {
            if (!statement.isBlank()) {
                execute(connection, statement);
            }
        }
    }

    public static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * The columns of {@code messages} this library adds; a row leaves them out while they are NULL, as they are in
     * every row the Python library wrote or worked, so that rows compare as that library declares them, and a value
     * written into them still shows.
     */
    public static final List<String> ADDED_MESSAGE_COLUMNS = List.of("priority", "concurrency_key");

    /** The schema objects this library adds to a file besides the columns, as {@link #schema(Path)} names them. */
    public static final List<String> ADDED_SCHEMA_OBJECTS = List.of("index idx_messages_priority",
            "index idx_messages_held", "index idx_messages_leased_keys",
            "index sqlite_autoindex_localqueue_turns_1", "index sqlite_autoindex_queue_claims_1",
            "index sqlite_autoindex_queue_controls_1", "index sqlite_autoindex_queue_priorities_1",
            "index sqlite_autoindex_recurring_jobs_1", "index sqlite_autoindex_recurring_ticks_1",
            "table localqueue_turns", "table message_headers", "table queue_claims", "table queue_controls",
            "table queue_priorities", "table recurring_jobs", "table recurring_ticks");

    /** The tables this library adds to a file, as {@link #tables(Path)} names them. */
    public static final List<String> ADDED_TABLES = List.of("localqueue_turns", "message_headers",
            "queue_claims", "queue_controls", "queue_priorities", "recurring_jobs", "recurring_ticks");

    /**
     * Runs a query and returns every row as column name to value, in column order; integers read as {@code Long},
     * blobs as {@code X'…'} hex text, so that rows compare with {@code equals}, and the
     * {@link #ADDED_MESSAGE_COLUMNS} left out while NULL.
     */
    public static List<Map<String, Object>> query(Connection connection, String sql, Object... arguments)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                ResultSetMetaData meta = rows.getMetaData();
                List<Map<String, Object>> result = new ArrayList<>();
                while (rows.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int column = 1; column <= meta.getColumnCount(); column++) {
                        Object value = normalize(rows.getObject(column));
                        String label = meta.getColumnLabel(column);
                        if (value != null || !ADDED_MESSAGE_COLUMNS.contains(label)) {
                            row.put(label, value);
                        }
                    }
                    result.add(row);
                }
                return result;
            }
        }
    }

    /** Like {@link #query(Connection, String, Object...)} on a connection of its own. */
    public static List<Map<String, Object>> query(Path file, String sql, Object... arguments) throws SQLException {
        try (Connection connection = connect(file)) {
            return query(connection, sql, arguments);
        }
    }

    /** Returns one row of {@code messages} by id, every column. */
    public static Map<String, Object> message(Path file, long id) throws SQLException {
        List<Map<String, Object>> rows = query(file, "SELECT * FROM messages WHERE id = ?", id);
        if (rows.size() != 1) {
            throw new AssertionError("expected one messages row with id " + id + " but found " + rows.size());
        }
        return rows.get(0);
    }

    /** Returns every row of every table (including {@code sqlite_sequence}), table by table in rowid order. */
    public static Map<String, List<Map<String, Object>>> tables(Path file) throws SQLException {
        try (Connection connection = connect(file)) {
            Map<String, List<Map<String, Object>>> tables = new LinkedHashMap<>();
            for (Map<String, Object> table : query(connection,
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
                String name = (String) table.get("name");
                tables.put(name, query(connection, "SELECT * FROM \"" + name + "\" ORDER BY rowid"));
            }
            return tables;
        }
    }

    /** Returns the schema objects as {@code "type name"} to their SQL text, by name. */
    public static Map<String, String> schema(Path file) throws SQLException {
        Map<String, String> objects = new LinkedHashMap<>();
        for (Map<String, Object> row : query(file,
                "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")) {
            objects.put(row.get("type") + " " + row.get("name"), String.valueOf(row.get("sql")));
        }
        return objects;
    }

    /**
     * Returns the schema as the Python library declared it: without the {@link #ADDED_SCHEMA_OBJECTS}, and with the
     * {@code messages} table's text without the {@link #ADDED_MESSAGE_COLUMNS}, which SQLite appends to it when a
     * column is added.
     */
    public static Map<String, String> schemaWithoutAdditions(Path file) throws SQLException {
        Map<String, String> objects = new LinkedHashMap<>(schema(file));
        objects.keySet().removeAll(ADDED_SCHEMA_OBJECTS);
        objects.computeIfPresent("table messages",
                (name, sql) -> sql.replace(", priority INTEGER", "").replace(", concurrency_key TEXT", ""));
        return objects;
    }

    /**
     * Returns every table's rows as {@link #tables(Path)} does, without the {@link #ADDED_TABLES}, each of which must
     * be empty.
     */
    public static Map<String, List<Map<String, Object>>> tablesWithoutAdditions(Path file) throws SQLException {
        Map<String, List<Map<String, Object>>> tables = new LinkedHashMap<>(tables(file));
        for (String added : ADDED_TABLES) {
            List<Map<String, Object>> rows = tables.remove(added);
            if (rows != null && !rows.isEmpty()) {
                throw new AssertionError("the added table " + added + " holds rows: " + rows);
            }
        }
        return tables;
    }

    /** Reads a pragma that returns one value, such as {@code user_version} or {@code journal_mode}. */
    public static Object pragma(Path file, String pragma) throws SQLException {
        return query(file, "PRAGMA " + pragma).get(0).values().iterator().next();
    }

    private static Object normalize(Object value) {
        if (value instanceof Integer number) {
            return number.longValue();
        }
        if (value instanceof byte[] bytes) {
            return "X'" + HexFormat.of().withUpperCase().formatHex(bytes) + "'";
        }
        return value;
    }

    private static String readResource(String resource) {
        try (InputStream in = RawSqlite.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
