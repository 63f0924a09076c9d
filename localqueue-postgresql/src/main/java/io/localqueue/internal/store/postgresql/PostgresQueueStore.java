package io.localqueue.internal.store.postgresql;

import io.localqueue.BackupResult;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.JobState;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.QueueLimits;
import io.localqueue.internal.store.QueuePause;
import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.ServerSettings;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.wakeup.Wakeups;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A localqueue database in a schema of a PostgreSQL database, reached through a {@link DataSource} of the caller's
 * (a pool, which this store does not close): write transactions run by {@link PostgresTransactions}, reads on a
 * connection of their own in auto-commit mode, notifications of its commits to other hosts through
 * {@link NotifySender}, wake-ups of other hosts' commits through {@link NotifyWatch}, and this host's liveness lock
 * ({@link HostLiveness}), which its receipts name.
 * Opening it creates or migrates the layout. What SQLite does to its file that PostgreSQL does for itself or
 * otherwise is answered so: {@link #backup} refuses (a database is copied with {@code pg_dump}), and
 * {@link #vacuum} runs {@code VACUUM (ANALYZE)} on the tables whose rows come and go: jobs, their headers, and the
 * event bus's membership and edges.
 */
public final class PostgresQueueStore implements QueueStore {

    private final DataSource dataSource;
    private final @Nullable AutoCloseable ownedPool;
    private final String schema;
    private final String location;
    private final String engineVersion;
    private final String databaseName;
    private final NotifySender notifications;
    private final PostgresTransactions transactions;
    private final Wakeups wakeups;
    private final HostLiveness liveness;
    private volatile boolean closed;

    /**
     * Opens a layout, creating or migrating it.
     *
     * @param dataSource reaches the database; the store never closes it
     * @param schema the layout's schema, created when missing
     * @throws IllegalArgumentException when the schema name is not a lower-case identifier
     * @throws LocalQueueException when the database cannot be reached, or the schema holds another layout
     */
    public PostgresQueueStore(DataSource dataSource, String schema) {
        this(dataSource, schema, null);
    }

    /**
     * Opens a layout on a pool that closing the store closes, or on the caller's data source when {@code ownedPool}
     * is null; a failure to open closes the owned pool.
     *
     * @param dataSource reaches the database
     * @param schema the layout's schema, created when missing
     * @param ownedPool the pool behind {@code dataSource} that this store owns, or null
     */
    PostgresQueueStore(DataSource dataSource, String schema, @Nullable AutoCloseable ownedPool) {
        this.dataSource = dataSource;
        this.ownedPool = ownedPool;
        this.schema = PostgresSchema.requireValidName(schema);
        try (Connection connection = dataSource.getConnection()) {
            PostgresSchema.createOrMigrate(connection, schema);
            this.location = ServerSettings.withoutCredentials(connection.getMetaData().getURL()) + " schema " + schema;
            this.engineVersion = connection.getMetaData().getDatabaseProductVersion();
            this.databaseName = connection.getCatalog();
        } catch (SQLException failure) {
            closeOwnedPool();
            throw PostgresErrors.wrap("opening schema " + schema, failure);
        } catch (RuntimeException failure) {
            closeOwnedPool();
            throw failure;
        }
        this.notifications = new NotifySender(dataSource, schema);
        this.liveness = new HostLiveness(dataSource, schema);
        this.transactions = new PostgresTransactions(dataSource, ownedPool != null, schema, notifications::committed,
                liveness::holder);
        this.wakeups = new Wakeups("localqueue-postgresql-" + schema, new NotifyWatch(dataSource, schema));
    }

    @Override
    public <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work) {
        requireOpen();
        return transactions.write(options, () -> {
            requireOpen();
            ensureOpen.run();
        }, work);
    }

    @Override
    public <R> R writeWithin(Connection connection, StoreWork<R> work) {
        requireOpen();
        try {
            if (connection.getAutoCommit()) {
                throw new IllegalArgumentException("the connection is not in a transaction (auto-commit is on)");
            }
            requireSameDatabase(connection);
        } catch (SQLException failure) {
            throw PostgresErrors.wrap("checking the caller's connection", failure);
        }
        PostgresWrites writes = new PostgresWrites(connection, schema);
        R result = work.run(writes);
        writes.notifyIfWakes();
        return result;
    }

    @Override
    public boolean executionPending(String executionId) {
        return read(connection -> ExecutionStatements.pending(connection, schema, executionId));
    }

    @Override
    public List<ExecutionRow> executions(String bus) {
        return read(connection -> ExecutionStatements.list(connection, schema, bus));
    }

    @Override
    public List<String> endedHolders(String queue) {
        liveness.awaitHolder(HostLiveness.FIRST_WAIT_MILLIS);
        return read(connection -> {
            List<String> named = ClaimStatements.holders(connection, schema, queue);
            return named.isEmpty() ? named : liveness.ended(connection, named);
        });
    }

    @Override
    public ClaimProbe probe(String queue) {
        return read(connection -> ClaimStatements.probe(connection, schema, queue));
    }

    @Override
    public @Nullable QueuePause pause(String queue) {
        return read(connection -> PauseStatements.pauseOf(connection, schema, queue));
    }

    @Override
    public QueueLimits limits(String queue) {
        return read(connection -> LimitStatements.limits(connection, schema, queue));
    }

    @Override
    public boolean isFull(String queue, long limit) {
        return read(connection -> ReadStatements.isFull(connection, schema, queue, limit));
    }

    @Override
    public QueueStats stats(String queue) {
        return read(connection -> ReadStatements.stats(connection, schema, queue));
    }

    @Override
    public List<FailedRow> listFailed(String queue, int limit, int offset) {
        return read(connection -> ReadStatements.listFailed(connection, schema, queue, limit, offset));
    }

    @Override
    public List<ReadyRow> listReady(String queue, int limit, int offset) {
        return read(connection -> ReadStatements.listReady(connection, schema, queue, limit, offset));
    }

    @Override
    public List<JobRow> listJobs(JobPageRequest request) {
        return read(connection -> JobStatements.page(connection, schema, request));
    }

    @Override
    public @Nullable JobRow job(String queue, long id) {
        return read(connection -> JobStatements.job(connection, schema, queue, id));
    }

    @Override
    public List<JobRow> jobsPut(String queue, long afterId, long throughId, int limit) {
        return read(connection -> JobStatements.put(connection, schema, queue, afterId, throughId, limit));
    }

    @Override
    public List<JobRow> jobs(String queue, long[] ids) {
        return read(connection -> JobStatements.byIds(connection, schema, queue, ids));
    }

    @Override
    public long lastJobId() {
        return read(connection -> JobStatements.lastId(connection, schema));
    }

    @Override
    public long countJobs(String queue, JobState state, long now, long cap) {
        return read(connection -> JobStatements.count(connection, schema, queue, state, now, cap));
    }

    @Override
    public QueueSnapshot snapshot(String queue, Clock clock) {
        return read(connection -> SnapshotStatements.snapshot(connection, schema, queue, clock));
    }

    @Override
    public List<RecurringRow> recurringJobs() {
        return read(connection -> RecurringStatements.rows(connection, schema));
    }

    @Override
    public List<String> queueNames() {
        return read(connection -> ReadStatements.queueNames(connection, schema));
    }

    /**
     * Checks the layout's rows (and, {@code FULL}, its B-trees); a server that cannot be reached is no finding about
     * the data, so it fails with {@link LocalQueueException} rather than a result that a caller might keep.
     */
    @Override
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        return read(connection -> IntegrityStatements.check(connection, schema, mode, maxErrors));
    }

    /** Always refuses: an online copy is the SQLite file's; a PostgreSQL database is copied with pg_dump. */
    @Override
    public BackupResult backup(Path destination) {
        throw new LocalQueueException("a PostgreSQL store has no file to copy: back its schema up with pg_dump, for "
                + "instance pg_dump --schema=" + schema + " --format=custom --file=<file> <database>");
    }

    @Override
    public void vacuum(Runnable ensureOpen) {
        ensureOpen.run();
        read(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("VACUUM (ANALYZE) " + schema + ".messages, " + schema + ".message_headers, "
                        + schema + ".event_bus_execution_deliveries, " + schema + ".event_bus_delivery_edges");
            }
            return null;
        });
    }

    @Override
    public Wakeups wakeups() {
        return wakeups;
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public String engine() {
        return "PostgreSQL";
    }

    @Override
    public String engineVersion() {
        return engineVersion;
    }

    /** Stops the wake-ups' watch, then closes the pool this store owns; a caller's data source stays open. */
    @Override
    public void close() {
        closed = true;
        notifications.close();
        wakeups.close();
        liveness.close();
        closeOwnedPool();
    }

    private void closeOwnedPool() {
        if (ownedPool != null) {
            try {
                ownedPool.close();
            } catch (Exception failure) {
                throw new LocalQueueException("closing the connection pool of schema " + schema + " failed: "
                        + failure.getMessage(), failure);
            }
        }
    }

    /** A read on a connection of its own, in auto-commit mode. */
    @FunctionalInterface
    private interface Read<R> {
        R run(Connection connection) throws SQLException;
    }

    /**
     * Runs a read on a connection of its own; one that finds its connection lost runs again on another, as a write
     * does ({@link PostgresTransactions#LOST_CONNECTION_RETRIES}), since a read changes nothing.
     */
    private <R> R read(Read<R> work) {
        requireOpen();
        String what = "reading schema " + schema;
        for (int lostConnections = 0; ; lostConnections++) {
            Connection connection;
            try {
                connection = dataSource.getConnection();
            } catch (SQLException failure) {
                throw PostgresErrors.unavailable(what, failure);
            }
            try (connection) {
                return work.run(connection);
            } catch (SQLException failure) {
                if (lostConnections == PostgresTransactions.LOST_CONNECTION_RETRIES
                        || !PostgresErrors.connectionLost(failure)) {
                    throw PostgresErrors.wrap(what, failure);
                }
            }
        }
    }

    /** The caller's connection must reach this store's database and layout: one query, on its connection alone. */
    private void requireSameDatabase(Connection connection) throws SQLException {
        try (PreparedStatement layout = connection.prepareStatement(
                "SELECT current_database(), to_regclass(? || '.localqueue_schema')")) {
            layout.setString(1, schema);
            try (ResultSet found = layout.executeQuery()) {
                found.next();
                String theirs = found.getString(1);
                if (!databaseName.equals(theirs) || found.getString(2) == null) {
                    throw new IllegalArgumentException("the connection reaches database " + theirs
                            + ", not schema " + schema + " of database " + databaseName + " that this store uses");
                }
            }
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new QueueClosedException("the PostgreSQL store of schema " + schema + " is closed");
        }
    }
}
