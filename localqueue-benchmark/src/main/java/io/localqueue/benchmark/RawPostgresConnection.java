package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One plain JDBC connection to a localqueue schema on PostgreSQL for the raw baseline: the schema on the search path,
 * {@code synchronous_commit} per durability mode for the whole session ({@code off} for RELAXED, {@code on} for
 * DURABLE, read back and checked), auto-commit off so that each transaction is its statements and one
 * {@code COMMIT} (the driver sends {@code BEGIN} with the first statement), prepared statements, no pool, no
 * retries, no notifications; the minimal statements for each step of a job's life, written against the layout's
 * table and its ready index. Every SQL statement of the PostgreSQL baseline is in this class. Not thread-safe: one
 * per thread.
 */
final class RawPostgresConnection implements RawJobs<RawPostgresConnection.Claimed> {

    private static final String COLUMNS = "queue, payload, status, attempts, max_attempts, available_at, job_id, "
            + "created_at, updated_at";

    private static final String INSERT = "INSERT INTO messages (" + COLUMNS + ") "
            + "VALUES (?, ?, 0, 0, ?, ?, NULL, ?, ?)";

    /** A batch is one statement over an array of payloads, one round trip however many rows. */
    private static final String INSERT_BATCH = "INSERT INTO messages (" + COLUMNS + ") "
            + "SELECT ?, p.payload, 0, 0, ?, ?, NULL, ?, ? FROM unnest(?::bytea[]) AS p (payload)";

    /**
     * Leases the first due rows in claim order, skipping rows others hold; the order is the claim-order index's
     * (priority, due time, id), so the server walks the index instead of sorting every ready row (the raw rows all
     * have priority 0).
     */
    private static final String CLAIM = """
            UPDATE messages
               SET status = 1, receipt = ?::text || id, lease_until = ?, attempts = attempts + 1, updated_at = ?
             WHERE id IN (SELECT id FROM messages
                           WHERE queue = ? AND status = 0 AND available_at <= ?
                           ORDER BY priority, available_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
            RETURNING id""";

    /** Acknowledges one delivery, fenced by its receipt and a live lease as the engine's ack is. */
    private static final String ACK = """
            UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, updated_at = ?
             WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?""";

    /** Acknowledges the rows of one claim in one statement, each fenced by its receipt (the claim's prefix and id). */
    private static final String ACK_BATCH = """
            UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, updated_at = ?
             WHERE id = ANY (?) AND queue = ? AND status = 1 AND receipt = ?::text || id AND lease_until > ?""";

    private static final String MAX_ID = "SELECT COALESCE(MAX(id), 0) FROM messages";

    private static final String COUNT = "SELECT COUNT(*) FROM messages WHERE queue = ? AND status = ?";

    private static final int MAX_ATTEMPTS = RunContext.DELIVERY.maxAttempts();
    private static final long LEASE_MILLIS = RunContext.DELIVERY.lease().toMillis();

    /**
     * A claimed row.
     *
     * @param id the row id
     * @param prefix the receipt prefix of the claim that leased it
     */
    record Claimed(long id, String prefix) {
        /** Returns the delivery's receipt. */
        String receipt() {
            return prefix + id;
        }
    }

    private final Connection connection;
    private final PreparedStatement insert;
    private final PreparedStatement insertBatch;
    private final PreparedStatement claim;
    private final PreparedStatement ack;
    private final PreparedStatement ackBatch;
    private final String queue;

    private RawPostgresConnection(Connection connection, String queue) throws SQLException {
        this.connection = connection;
        this.queue = queue;
        this.insert = connection.prepareStatement(INSERT);
        this.insertBatch = connection.prepareStatement(INSERT_BATCH);
        this.claim = connection.prepareStatement(CLAIM);
        this.ack = connection.prepareStatement(ACK);
        this.ackBatch = connection.prepareStatement(ACK_BATCH);
    }

    /**
     * Opens a connection and checks that the durability setting took effect.
     *
     * @param url the server's JDBC URL
     * @param schema the schema, whose layout already exists
     * @param mode the durability mode: {@code synchronous_commit} {@code off} or {@code on}
     * @param queue the queue name every statement uses
     * @return the connection
     * @throws SQLException when the server cannot be reached or the setting did not stick
     */
    static RawPostgresConnection open(String url, String schema, DurabilityMode mode, String queue)
            throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("currentSchema", schema);
        properties.setProperty("ApplicationName", "localqueue-raw-baseline");
        Connection connection = DriverManager.getConnection(url, properties);
        try {
            String synchronousCommit = synchronousCommit(mode);
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET synchronous_commit = " + synchronousCommit);
                try (ResultSet rows = statement.executeQuery("SHOW synchronous_commit")) {
                    rows.next();
                    if (!synchronousCommit.equals(rows.getString(1))) {
                        throw new SQLException("synchronous_commit is " + rows.getString(1) + ", expected "
                                + synchronousCommit);
                    }
                }
            }
            connection.setAutoCommit(false);
            return new RawPostgresConnection(connection, queue);
        } catch (SQLException | RuntimeException failure) {
            connection.close();
            throw failure;
        }
    }

    /**
     * Returns the {@code synchronous_commit} of the raw connections in a durability mode.
     *
     * @param mode the mode
     * @return {@code off} or {@code on}
     */
    static String synchronousCommit(DurabilityMode mode) {
        return mode == DurabilityMode.DURABLE ? "on" : "off";
    }

    /** Starts a transaction: nothing to send, the driver begins one with the next statement. */
    @Override
    public void begin() {
    }

    /** Commits the transaction. */
    @Override
    public void commit() throws SQLException {
        connection.commit();
    }

    /**
     * Inserts one row.
     *
     * @param payload the payload bytes
     */
    @Override
    public void insert(byte[] payload) throws SQLException {
        long now = System.currentTimeMillis();
        insert.setString(1, queue);
        insert.setBytes(2, payload);
        insert.setInt(3, MAX_ATTEMPTS);
        insert.setLong(4, now);
        insert.setLong(5, now);
        insert.setLong(6, now);
        insert.executeUpdate();
    }

    /**
     * Inserts {@code rows} rows with one {@code INSERT … SELECT FROM unnest(?)}: queue, budget and time bound once,
     * the payloads as one array.
     *
     * @param payload the payload bytes of every row
     * @param rows how many rows
     */
    @Override
    public void insertBatch(byte[] payload, int rows) throws SQLException {
        long now = System.currentTimeMillis();
        byte[][] payloads = new byte[rows][];
        for (int row = 0; row < rows; row++) {
            payloads[row] = payload;
        }
        insertBatch.setString(1, queue);
        insertBatch.setInt(2, MAX_ATTEMPTS);
        insertBatch.setLong(3, now);
        insertBatch.setLong(4, now);
        insertBatch.setLong(5, now);
        insertBatch.setArray(6, connection.createArrayOf("bytea", payloads));
        insertBatch.executeUpdate();
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
        String prefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + ":";
        claim.setString(1, prefix);
        claim.setLong(2, now + LEASE_MILLIS);
        claim.setLong(3, now);
        claim.setString(4, queue);
        claim.setLong(5, now);
        claim.setInt(6, limit);
        List<Claimed> rows = new ArrayList<>(limit);
        try (ResultSet result = claim.executeQuery()) {
            while (result.next()) {
                rows.add(new Claimed(result.getLong(1), prefix));
            }
        }
        return rows;
    }

    /**
     * Acknowledges one row.
     *
     * @param row the claimed row
     * @return 1 when the fence matched
     */
    @Override
    public int ack(Claimed row) throws SQLException {
        long now = System.currentTimeMillis();
        ack.setLong(1, now);
        ack.setLong(2, row.id());
        ack.setString(3, queue);
        ack.setString(4, row.receipt());
        ack.setLong(5, now);
        return ack.executeUpdate();
    }

    /**
     * Acknowledges the rows of one claim with one {@code UPDATE … WHERE id = ANY (?)}.
     *
     * @param rows rows that one {@link #claim(int)} returned
     * @return how many fences matched
     */
    int ackBatch(List<Claimed> rows) throws SQLException {
        long now = System.currentTimeMillis();
        Long[] ids = new Long[rows.size()];
        String prefix = rows.get(0).prefix();
        for (int i = 0; i < ids.length; i++) {
            if (!rows.get(i).prefix().equals(prefix)) {
                throw new IllegalArgumentException("a batch acknowledgement takes the rows of one claim");
            }
            ids[i] = rows.get(i).id();
        }
        ackBatch.setLong(1, now);
        ackBatch.setArray(2, connection.createArrayOf("bigint", ids));
        ackBatch.setString(3, queue);
        ackBatch.setString(4, prefix);
        ackBatch.setLong(5, now);
        return ackBatch.executeUpdate();
    }

    /**
     * Returns the largest row id in the schema, or 0.
     *
     * @return the id
     */
    long maxId() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(MAX_ID)) {
            rows.next();
            long id = rows.getLong(1);
            connection.commit();
            return id;
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
        try (PreparedStatement statement = connection.prepareStatement(COUNT)) {
            statement.setString(1, queue);
            statement.setInt(2, status);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                long count = rows.getLong(1);
                connection.commit();
                return count;
            }
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
