package io.localqueue.internal.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SQLite connection and the statements prepared on it. SQLite parses and plans a statement on every prepare,
 * and the queue's statements are few and run constantly, so each is prepared once, the first time it runs on this
 * connection, and kept until the connection closes. Between uses a statement is reset and its parameter values
 * dropped, but {@code clearParameters()} is never called: its {@code sqlite3_clear_bindings} marks a statement
 * whose plan looked at a parameter as expired, so SQLite would plan it again on the next run.
 *
 * <p>An insert run through JDBC's {@code executeUpdate} makes sqlite-jdbc, when the connection keeps generated keys
 * (its default), run {@code SELECT last_insert_rowid()} on a statement of its own and leave that result open: the
 * connection then has a statement in progress until the next run, and {@code VACUUM} fails. The connections this
 * library opens keep no generated keys ({@link SqliteConnector}); on a connection that does, {@link #update} closes
 * that result before it returns.
 *
 * <p>Not thread-safe: one thread at a time uses a session (the writer's lock, or a reader's loan), and a held
 * statement's previous use must be over before it runs again.
 */
final class Session implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Session.class);

    private static final long NOT_CAUGHT_UP = Long.MIN_VALUE;

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private final boolean keepsGeneratedKeys;
    /**
     * The queues this connection found using priorities (a queue never stops using them, so none leaves), each with
     * the claim time at which it last found no row left to sweep, or {@link #NOT_CAUGHT_UP}.
     */
    private final Map<String, Long> prioritizedQueues = new HashMap<>();
    /**
     * The queues this connection last found with controls (paused, or with a limit), whose claims read the controls
     * first instead of trying the plain statement that takes nothing of them.
     */
    private final Set<String> controlledQueues = new HashSet<>();

    Session(Connection connection) {
        this.connection = connection;
        this.keepsGeneratedKeys = keepsGeneratedKeys(connection);
    }

    /** Tells whether this connection's last read of the queue's controls found some. */
    boolean knownControlled(String queue) {
        return controlledQueues.contains(queue);
    }

    /** Remembers what this connection's last read of the queue's controls found. */
    void rememberControlled(String queue, boolean controlled) {
        if (controlled) {
            controlledQueues.add(queue);
        } else {
            controlledQueues.remove(queue);
        }
    }

    /** Tells whether this connection found the queue using priorities before. */
    boolean knownPrioritized(String queue) {
        return prioritizedQueues.containsKey(queue);
    }

    /** Remembers that the queue uses priorities, which it does from then on. */
    void rememberPrioritized(String queue) {
        prioritizedQueues.putIfAbsent(queue, NOT_CAUGHT_UP);
    }

    /** Remembers that the queue uses priorities and that, at {@code now}, none of its rows was left to sweep. */
    void rememberCaughtUp(String queue, long now) {
        prioritizedQueues.put(queue, now);
    }

    /** Forgets that the queue uses priorities, for a first prioritized put that was rolled back. */
    void forgetPrioritized(String queue) {
        prioritizedQueues.remove(queue);
    }

    /** Remembers that the queue uses priorities and may have rows left to sweep. */
    void rememberBehind(String queue) {
        prioritizedQueues.put(queue, NOT_CAUGHT_UP);
    }

    /**
     * Tells whether this connection found none of the queue's rows left to sweep less than {@code interval}
     * milliseconds before {@code now} (a clock that went back counts as not).
     */
    boolean caughtUpWithin(String queue, long now, long interval) {
        Long at = prioritizedQueues.get(queue);
        return at != null && at != NOT_CAUGHT_UP && now >= at && now - at < interval;
    }

    /** Sets a statement's parameters. */
    @FunctionalInterface
    public interface Binder {
        /**
         * Binds the parameters.
         *
         * @param statement the statement
         * @throws SQLException when a value cannot be bound
         */
        void bind(PreparedStatement statement) throws SQLException;
    }

    /**
     * Reads a query's rows.
     *
     * @param <R> the result type
     */
    @FunctionalInterface
    public interface RowsReader<R extends @Nullable Object> {
        /**
         * Reads the rows; the result set is closed afterwards.
         *
         * @param rows the rows, before the first
         * @return the result
         * @throws SQLException when a value cannot be read
         */
        R read(ResultSet rows) throws SQLException;
    }

    /**
     * Runs an insert, update or delete held on this connection.
     *
     * @param sql the statement
     * @param binder sets its parameters
     * @return how many rows changed
     * @throws SQLException when SQLite fails
     */
    public int update(String sql, Binder binder) throws SQLException {
        PreparedStatement statement = held(sql);
        try {
            binder.bind(statement);
            int changed = statement.executeUpdate();
            if (keepsGeneratedKeys) {
                statement.getGeneratedKeys().close();
            }
            return changed;
        } finally {
            statement.clearBatch();
        }
    }

    /**
     * Runs a query (or a statement with {@code RETURNING}) held on this connection.
     *
     * @param sql the statement
     * @param binder sets its parameters
     * @param reader reads the rows
     * @param <R> the result type
     * @return what {@code reader} returned
     * @throws SQLException when SQLite fails
     */
    public <R extends @Nullable Object> R query(String sql, Binder binder, RowsReader<R> reader) throws SQLException {
        PreparedStatement statement = held(sql);
        try {
            binder.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                return reader.read(rows);
            }
        } finally {
            statement.clearBatch();
        }
    }

    /**
     * Runs a query held on this connection that returns one number, or null when it returns no row or NULL.
     *
     * @param sql the statement
     * @param binder sets its parameters
     * @return the number, or null
     * @throws SQLException when SQLite fails
     */
    public @Nullable Long queryLong(String sql, Binder binder) throws SQLException {
        return query(sql, binder, rows -> {
            if (!rows.next()) {
                return null;
            }
            long value = rows.getLong(1);
            return rows.wasNull() ? null : value;
        });
    }

    /**
     * Runs one statement many times in one call into SQLite, once per bound parameter set.
     *
     * @param sql the statement
     * @param count how many times
     * @param binder sets the parameters of run {@code index}, then the batch adds them
     * @return the rows changed by each run
     * @throws SQLException when SQLite fails
     */
    public int[] batch(String sql, int count, IndexedBinder binder) throws SQLException {
        PreparedStatement statement = held(sql);
        try {
            for (int i = 0; i < count; i++) {
                binder.bind(statement, i);
                statement.addBatch();
            }
            return statement.executeBatch();
        } finally {
            statement.clearBatch();
        }
    }

    /** Sets the parameters of one run of a batch. */
    @FunctionalInterface
    public interface IndexedBinder {
        /**
         * Binds the parameters of one run.
         *
         * @param statement the statement
         * @param index which run, from zero
         * @throws SQLException when a value cannot be bound
         */
        void bind(PreparedStatement statement, int index) throws SQLException;
    }

    /**
     * Runs a statement that is not kept, such as a PRAGMA that changes a setting or DDL.
     *
     * @param sql the statement
     * @throws SQLException when SQLite fails
     */
    public void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * Runs a transaction-control statement ({@code BEGIN IMMEDIATE}, {@code COMMIT}…), held like any other.
     *
     * @param sql the statement
     * @throws SQLException when SQLite fails
     */
    public void control(String sql) throws SQLException {
        held(sql).execute();
    }

    /**
     * Returns the JDBC connection, for work no helper here covers; it stays owned by this session.
     *
     * @return the connection
     */
    public Connection connection() {
        return connection;
    }

    /** Closes every held statement and the connection. */
    @Override
    public void close() {
        closeStatements();
        try {
            connection.close();
        } catch (SQLException failure) {
            log.debug("Closing a SQLite connection failed", failure);
        }
    }

    /** Closes every held statement, leaving the connection open, for a connection this session only borrowed. */
    void closeStatements() {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException failure) {
                log.trace("Closing a statement failed", failure);
            }
        }
        statements.clear();
    }

    /** Whether the driver opens a generated-keys result after each insert on this connection; unknown counts as yes. */
    private static boolean keepsGeneratedKeys(Connection connection) {
        try {
            return !connection.isWrapperFor(SQLiteConnection.class)
                    || connection.unwrap(SQLiteConnection.class).getConnectionConfig().isGetGeneratedKeys();
        } catch (SQLException unknown) {
            return true;
        }
    }

    private PreparedStatement held(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }
}
