package io.localqueue.storage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.jspecify.annotations.Nullable;

/**
 * The layouts the Python library has written, each created from its own SQL script the way the Python library
 * creates a new file: WAL first, then the schema, then rows inserted with the columns that layout has.
 */
enum PythonLayout {

    /** Release 1.0: {@code messages} without failure reasons and event identity, and two indexes. */
    V1_0("storage/python-1.0-schema.sql"),

    /** Release 1.4: every {@code messages} column, three indexes and the event-bus tables. */
    V1_4("storage/python-1.4-schema.sql");

    private static final String INSERT_1_0 = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, lease_until, receipt,
                                  last_error, job_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final String INSERT_1_4 = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, lease_until, receipt,
                                  last_error, failure_reason, failure_category, job_id, dedup_key,
                                  dedup_fingerprint, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private final String script;

    PythonLayout(String script) {
        this.script = script;
    }

    /**
     * Creates a new database file in this layout and returns an open connection (autocommit, foreign keys on) for
     * inserting rows; the caller closes it, which checkpoints the WAL into the file.
     */
    Connection create(Path file) throws SQLException {
        if (Files.exists(file)) {
            throw new IllegalStateException(file + " exists already");
        }
        Connection connection = RawSqlite.connect(file);
        try {
            String mode = (String) RawSqlite.query(connection, "PRAGMA journal_mode = WAL").get(0).get("journal_mode");
            if (!"wal".equals(mode)) {
                throw new IllegalStateException("cannot switch " + file + " to WAL: " + mode);
            }
            RawSqlite.runScript(connection, script);
            return connection;
        } catch (SQLException | RuntimeException failure) {
            connection.close();
            throw failure;
        }
    }

    /** Inserts a row as this release's Python library would and returns its id. */
    long insert(Connection connection, StoredRow row) throws SQLException {
        boolean legacy = this == V1_0;
        if (legacy && (row.failureReason() != null || row.failureCategory() != null || row.dedupKey() != null
                || row.dedupFingerprint() != null)) {
            throw new IllegalArgumentException("release 1.0 has no failure reason, category or event identity: "
                    + row);
        }
        try (PreparedStatement insert = connection.prepareStatement(legacy ? INSERT_1_0 : INSERT_1_4)) {
            int column = 0;
            insert.setString(++column, row.queue());
            insert.setBytes(++column, row.payload());
            insert.setInt(++column, row.status());
            insert.setInt(++column, row.attempts());
            insert.setInt(++column, row.maxAttempts());
            insert.setLong(++column, row.availableAt());
            setLong(insert, ++column, row.leaseUntil());
            insert.setString(++column, row.receipt());
            insert.setString(++column, row.lastError());
            if (!legacy) {
                insert.setString(++column, row.failureReason());
                insert.setString(++column, row.failureCategory());
            }
            insert.setString(++column, row.jobId());
            if (!legacy) {
                insert.setString(++column, row.dedupKey());
                insert.setString(++column, row.dedupFingerprint());
            }
            insert.setLong(++column, row.createdAt());
            insert.setLong(++column, row.updatedAt());
            insert.executeUpdate();
        }
        try (PreparedStatement last = connection.prepareStatement("SELECT last_insert_rowid()");
             ResultSet id = last.executeQuery()) {
            id.next();
            return id.getLong(1);
        }
    }

    private static void setLong(PreparedStatement statement, int column, @Nullable Long value) throws SQLException {
        if (value == null) {
            statement.setNull(column, Types.INTEGER);
        } else {
            statement.setLong(column, value);
        }
    }
}
