package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.sqlite.SQLiteConfig;

/**
 * One plain JDBC connection to a localqueue file for the raw baseline: WAL, {@code synchronous} per durability
 * mode, a 5-second busy timeout, autocommit with explicit {@code BEGIN IMMEDIATE} / {@code COMMIT}, and the minimal
 * statements for each step of a job's life, written against the engine's table and the reference index set. Not
 * thread-safe: one per thread.
 */
final class RawConnection implements RawJobs<RawConnection.Claimed> {

    private static final String INSERT = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, job_id, \
            created_at, updated_at)
            VALUES (?, ?, 0, 0, ?, ?, NULL, ?, ?)""";

    /** Leases the first due rows in claim order in one statement; RETURNING needs {@code executeQuery}. */
    private static final String CLAIM = """
            UPDATE messages
               SET status = 1, receipt = ?1 || id, lease_until = ?2, attempts = attempts + 1, updated_at = ?3
             WHERE id IN (SELECT id FROM messages INDEXED BY idx_messages_queue_status
                           WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                           ORDER BY available_at, lease_until, id LIMIT ?5)
            RETURNING id, receipt""";

    /** Acknowledges a delivery, fenced by its receipt and a live lease as the engine's ack is. */
    private static final String ACK = """
            UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, updated_at = ?
             WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?""";

    private static final int MAX_ATTEMPTS = RunContext.DELIVERY.maxAttempts();
    private static final long LEASE_MILLIS = RunContext.DELIVERY.lease().toMillis();

    /**
     * A claimed row.
     *
     * @param id the row id
     * @param receipt its delivery receipt
     */
    record Claimed(long id, String receipt) {
    }

    private final Connection connection;
    private final Statement control;
    private final PreparedStatement insert;
    private final PreparedStatement claim;
    private final PreparedStatement ack;
    private final String queue;
    /** One multi-row insert per batch size used, prepared on first use. */
    private final Map<Integer, PreparedStatement> insertRows = new HashMap<>();

    private RawConnection(Connection connection, String queue) throws SQLException {
        this.connection = connection;
        this.queue = queue;
        this.control = connection.createStatement();
        this.insert = connection.prepareStatement(INSERT);
        this.claim = connection.prepareStatement(CLAIM);
        this.ack = connection.prepareStatement(ACK);
    }

    /**
     * Opens a connection and checks that the settings took effect.
     *
     * @param file the database file, whose schema already exists
     * @param mode the durability mode: {@code synchronous=NORMAL} or {@code FULL}
     * @param queue the queue name every statement uses
     * @return the connection
     * @throws SQLException when the file cannot be opened or a setting did not stick
     */
    static RawConnection open(Path file, DurabilityMode mode, String queue) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(mode == DurabilityMode.DURABLE ? SQLiteConfig.SynchronousMode.FULL
                : SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(5000);
        Connection connection = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try {
            require(connection, "PRAGMA journal_mode", "wal");
            require(connection, "PRAGMA synchronous", String.valueOf(mode.synchronousLevel()));
            return new RawConnection(connection, queue);
        } catch (SQLException | RuntimeException failure) {
            connection.close();
            throw failure;
        }
    }

    /** Starts a write transaction, taking the write lock at once. */
    @Override
    public void begin() throws SQLException {
        control.execute("BEGIN IMMEDIATE");
    }

    /** Commits the transaction. */
    @Override
    public void commit() throws SQLException {
        control.execute("COMMIT");
    }

    /**
     * Inserts one row with {@code executeUpdate}.
     *
     * @param payload the payload bytes
     */
    @Override
    public void insert(byte[] payload) throws SQLException {
        bindInsert(payload, System.currentTimeMillis());
        insert.executeUpdate();
    }

    /**
     * Inserts {@code rows} rows with one multi-row {@code INSERT … VALUES (…), (…)}, the fewest steps SQLite can
     * take for them: queue, budget and time bound once, each payload once.
     *
     * @param payload the payload bytes of every row
     * @param rows how many rows, at most 32,000
     */
    @Override
    public void insertBatch(byte[] payload, int rows) throws SQLException {
        PreparedStatement statement = insertRows.get(rows);
        if (statement == null) {
            StringBuilder sql = new StringBuilder("INSERT INTO messages (queue, payload, status, attempts, "
                    + "max_attempts, available_at, job_id, created_at, updated_at) VALUES ");
            for (int row = 0; row < rows; row++) {
                sql.append(row == 0 ? "" : ", ").append("(?1, ?").append(row + 4)
                        .append(", 0, 0, ?2, ?3, NULL, ?3, ?3)");
            }
            statement = connection.prepareStatement(sql.toString());
            insertRows.put(rows, statement);
        }
        statement.setString(1, queue);
        statement.setInt(2, MAX_ATTEMPTS);
        statement.setLong(3, System.currentTimeMillis());
        for (int row = 0; row < rows; row++) {
            statement.setBytes(row + 4, payload);
        }
        statement.executeUpdate();
    }

    /**
     * Leases up to {@code limit} due rows.
     *
     * @param limit how many rows at most
     * @return the claimed rows, in no particular order
     */
    @Override
    public List<Claimed> claim(int limit) throws SQLException {
        long now = System.currentTimeMillis();
        claim.setString(1, Long.toHexString(ThreadLocalRandom.current().nextLong()) + ":");
        claim.setLong(2, now + LEASE_MILLIS);
        claim.setLong(3, now);
        claim.setString(4, queue);
        claim.setInt(5, limit);
        List<Claimed> rows = new ArrayList<>(limit);
        try (ResultSet result = claim.executeQuery()) {
            while (result.next()) {
                rows.add(new Claimed(result.getLong(1), result.getString(2)));
            }
        }
        return rows;
    }

    /**
     * Acknowledges one row with {@code executeUpdate}.
     *
     * @param row the claimed row
     * @return 1 when the fence matched
     */
    @Override
    public int ack(Claimed row) throws SQLException {
        bindAck(row, System.currentTimeMillis());
        return ack.executeUpdate();
    }

    /**
     * Acknowledges rows with one {@code executeBatch}.
     *
     * @param rows the claimed rows
     * @return how many fences matched
     */
    int ackBatch(List<Claimed> rows) throws SQLException {
        long now = System.currentTimeMillis();
        for (Claimed row : rows) {
            bindAck(row, now);
            ack.addBatch();
        }
        int matched = 0;
        for (int count : ack.executeBatch()) {
            matched += count;
        }
        return matched;
    }

    /**
     * Returns the largest row id in the file, or 0.
     *
     * @return the id
     */
    long maxId() throws SQLException {
        try (ResultSet rows = control.executeQuery("SELECT COALESCE(MAX(id), 0) FROM messages")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * Counts this queue's rows in a state.
     *
     * @param status 0 ready, 1 leased, 2 acknowledged
     * @return the count
     */
    @Override
    public long count(int status) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT COUNT(*) FROM messages WHERE queue = ? AND status = ?")) {
            statement.setString(1, queue);
            statement.setInt(2, status);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    private void bindInsert(byte[] payload, long now) throws SQLException {
        insert.setString(1, queue);
        insert.setBytes(2, payload);
        insert.setInt(3, MAX_ATTEMPTS);
        insert.setLong(4, now);
        insert.setLong(5, now);
        insert.setLong(6, now);
    }

    private void bindAck(Claimed row, long now) throws SQLException {
        ack.setLong(1, now);
        ack.setLong(2, row.id());
        ack.setString(3, queue);
        ack.setString(4, row.receipt());
        ack.setLong(5, now);
    }

    private static void require(Connection connection, String pragma, String expected) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(pragma)) {
            rows.next();
            String actual = rows.getString(1);
            if (!expected.equalsIgnoreCase(actual)) {
                throw new SQLException(pragma + " is " + actual + ", expected " + expected);
            }
        }
    }
}
