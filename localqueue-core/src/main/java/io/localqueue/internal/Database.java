package io.localqueue.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.DurabilityMode;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

/**
 * One localqueue database file as seen from this JVM, shared by every queue on it and reference counted.
 *
 * <p>Writes go through one writer connection guarded by a lock, each inside {@code BEGIN IMMEDIATE}, so threads of
 * this JVM never contend inside SQLite; contention with other processes is retried here with jittered backoff,
 * outside the lock, within a time budget. Reads use a small pool of separate connections and never take the write
 * lock.
 */
public final class Database implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Database.class);

    /** The database file inside a queue directory; the Python library uses the same name. */
    public static final String FILE_NAME = "localqueue.db";

    /** How long a write keeps retrying while another process holds the write lock. */
    public static final long WRITE_BUDGET_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** SQLite's own busy wait for reads and for opening; the Python library uses the same value. */
    static final int READ_BUSY_TIMEOUT_MS = 5000;

    private static final int READER_POOL_SIZE = 4;

    /**
     * WAL pages after which a commit of this JVM checkpoints (SQLite's default is 1,000). A checkpoint costs two
     * fsyncs however few pages it copies, and pages written again and again are copied once, so checkpointing every
     * 4,000 pages (a WAL of about 16 MB) costs a quarter as many fsyncs for the same commits.
     */
    static final int WAL_AUTOCHECKPOINT_PAGES = 4_000;
    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private static final Map<Path, Database> OPEN = new HashMap<>();

    private static final String QUEUE_NAMES = """
            WITH RECURSIVE names(name) AS (
                SELECT MIN(queue) FROM messages
                UNION ALL
                SELECT (SELECT MIN(queue) FROM messages WHERE queue > names.name) FROM names WHERE name IS NOT NULL)
            SELECT name FROM names WHERE name IS NOT NULL""";

    private final Path directory;
    private final Path file;
    private final HikariDataSource writerPool;
    private final HikariDataSource readerPool;
    private final JdbcTemplate writeJdbc;
    private final JdbcTemplate readJdbc;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ChangeNotifier changes;
    private final GroupCommit groupCommit = new GroupCommit(this);
    private final WriteGate gate;
    private final String sqliteVersion;
    private @Nullable SQLiteConnection preparedWriter;
    private @Nullable DurabilityMode preparedMode;
    private int references;
    private volatile boolean closed;

    private Database(Path directory, Path file, String url, String sqliteVersion) {
        this.directory = directory;
        this.file = file;
        this.sqliteVersion = sqliteVersion;
        // Opening waits on SQLite's busy handler like any reader; prepareWriter then turns it off, since writes
        // retry on their own, outside the in-process lock.
        this.writerPool = pool("localqueue-writer",
                new StatementCachingDataSource(dataSource(url, READ_BUSY_TIMEOUT_MS)), 1);
        try {
            this.readerPool = pool("localqueue-reader",
                    new StatementCachingDataSource(dataSource(url, READ_BUSY_TIMEOUT_MS)), READER_POOL_SIZE);
        } catch (RuntimeException failure) {
            writerPool.close();
            throw failure;
        }
        this.writeJdbc = template(writerPool);
        this.readJdbc = template(readerPool);
        this.changes = new ChangeNotifier(dataSource(url, READ_BUSY_TIMEOUT_MS), directory);
        this.gate = new WriteGate(file);
    }

    /**
     * Opens (or joins, when this JVM already has it open) the database in a queue directory, creating the
     * directory, the file and the schema as needed.
     *
     * @param directory the queue directory; it holds {@value #FILE_NAME}
     * @return the shared database; call {@link #close()} once for every call to this method
     * @throws LocalQueueException when the directory cannot be used or the file is not a localqueue database
     */
    public static Database acquire(Path directory) {
        Path canonical = prepareDirectory(directory);
        synchronized (OPEN) {
            Database database = OPEN.get(canonical);
            if (database == null) {
                database = open(canonical);
                OPEN.put(canonical, database);
            }
            database.references++;
            return database;
        }
    }

    /**
     * Takes one more reference to this already open database.
     *
     * @return this database; call {@link #close()} once more
     * @throws LocalQueueException when the database was closed meanwhile
     */
    public Database retain() {
        synchronized (OPEN) {
            if (references == 0) {
                throw new LocalQueueException("database " + file + " is closed");
            }
            references++;
            return this;
        }
    }

    /** Returns the queue directory, with symbolic links resolved. */
    public Path directory() {
        return directory;
    }

    /** Returns the database file. */
    public Path file() {
        return file;
    }

    /** Returns the version of the SQLite library linked into the driver. */
    public String sqliteVersion() {
        return sqliteVersion;
    }

    /** Returns the wake-up hub for queues on this file. */
    ChangeNotifier changes() {
        return changes;
    }

    /**
     * Runs one write transaction ({@code BEGIN IMMEDIATE} … {@code COMMIT}) with the synchronous level of
     * {@code mode}, retrying the whole transaction while another process holds the write lock.
     *
     * @param mode the durability of this commit
     * @param budgetNanos how long to keep retrying on lock contention; zero makes exactly one attempt
     * @param ensureOpen throws when the caller was closed, checked before every attempt
     * @param work the statements
     * @param <R> the result type
     * @return what {@code work} returned, after the commit
     * @throws WriteLockBusyException when the write lock stayed taken for the whole budget
     */
    public <R> R write(DurabilityMode mode, long budgetNanos, Runnable ensureOpen, WriteWork<R> work) {
        return retrying(mode, budgetNanos, budgetNanos, ensureOpen, connection -> attempt(connection, work));
    }

    /**
     * Runs one write transaction like {@link #write} with a zero budget, except that it first waits its turn
     * behind the other processes of this library writing to the file; it still never waits for SQLite's lock.
     *
     * @param mode the durability of this commit
     * @param ensureOpen throws when the caller was closed
     * @param work the statements
     * @param <R> the result type
     * @return what {@code work} returned, after the commit
     * @throws WriteLockBusyException when another connection held SQLite's write lock
     */
    public <R> R writeOnceInLine(DurabilityMode mode, Runnable ensureOpen, WriteWork<R> work) {
        return retrying(mode, 0, WRITE_BUDGET_NANOS, ensureOpen, connection -> attempt(connection, work));
    }

    /**
     * Runs one small statement in a write transaction shared with the statements other threads submit at the same
     * moment (group commit), and returns its result after that transaction commits.
     *
     * @param mode the durability of this statement's commit; the shared commit uses the strongest asked for
     * @param statement the statement; an exception it throws fails this call alone
     * @param <R> the result type
     * @return what {@code statement} returned
     */
    public <R> R writeGrouped(DurabilityMode mode, WriteWork<R> statement) {
        requireOpen();
        return groupCommit.submit(mode, statement);
    }

    /**
     * Runs one statement that cannot be inside a transaction, such as {@code VACUUM}, on the writer connection,
     * retrying on lock contention like {@link #write}.
     *
     * @param sql the statement
     * @param budgetNanos how long to keep retrying on lock contention
     * @param ensureOpen throws when the caller was closed, checked before every attempt
     */
    public void writeOutsideTransaction(String sql, long budgetNanos, Runnable ensureOpen) {
        retrying(DurabilityMode.RELAXED, budgetNanos, budgetNanos, ensureOpen, connection -> {
            try {
                execute(connection, sql);
                return Attempt.done(null);
            } catch (SQLException failure) {
                if (SqliteErrors.isBusy(failure)) {
                    return Attempt.busy(failure);
                }
                throw failure;
            }
        });
    }

    /**
     * Attempts a write until it gets SQLite's lock or its budget is spent; each attempt first takes the writers'
     * line, waiting for it at most {@code lineWaitNanos} (zero: only when it is free at once).
     */
    private <R> R retrying(DurabilityMode mode, long budgetNanos, long lineWaitNanos, Runnable ensureOpen,
                           AttemptRunner<R> runner) {
        Backoff backoff = new Backoff(FIRST_BACKOFF_NANOS, MAX_BACKOFF_NANOS, budgetNanos);
        while (true) {
            ensureOpen.run();
            requireOpen();
            Throwable busy;
            writeLock.lock();
            try {
                requireOpen();
                if (gate.enter(lineWaitNanos)) {
                    try {
                        Attempt<R> attempt = attemptOnWriter(mode, ensureOpen, runner);
                        if (attempt.busy == null) {
                            return attempt.value;
                        }
                        busy = attempt.busy;
                    } finally {
                        gate.exit();
                    }
                } else {
                    busy = new SQLiteException("another process of this library is writing to " + file,
                            SQLiteErrorCode.SQLITE_BUSY);
                    if (lineWaitNanos > 0) {
                        throw new WriteLockBusyException("database is locked: another process of this library kept "
                                + "its place in the writers' line of " + file + " for "
                                + TimeUnit.NANOSECONDS.toMillis(lineWaitNanos) + " ms", busy);
                    }
                }
            } finally {
                writeLock.unlock();
            }
            backoff.pause(file.toString(), busy);
        }
    }

    private <R> Attempt<R> attemptOnWriter(DurabilityMode mode, Runnable ensureOpen, AttemptRunner<R> runner) {
        try (Connection connection = writerPool.getConnection()) {
            prepareWriter(connection, mode);
            return runner.run(connection);
        } catch (SQLException | DataAccessException failure) {
            ensureOpen.run();
            throw SqliteErrors.wrap("writing to " + file, failure);
        }
    }

    /**
     * Returns the pauses a caller that retries writes itself (rather than through {@link #write}) should take
     * between attempts that found the write lock taken.
     *
     * @param firstNanos the first pause
     * @param maxNanos the longest pause
     * @return a fresh backoff within the usual write budget
     */
    Backoff backoff(long firstNanos, long maxNanos) {
        return new Backoff(firstNanos, maxNanos, WRITE_BUDGET_NANOS);
    }

    /**
     * Runs queries on a reader connection inside one deferred transaction, so they see a single snapshot.
     *
     * @param work the queries
     * @param <R> the result type
     * @return what {@code work} returned
     */
    public <R> R snapshot(ReadWork<R> work) {
        requireOpen();
        try (Connection connection = readerPool.getConnection()) {
            control(connection, "BEGIN");
            TransactionSynchronizationManager.bindResource(readerPool, new ConnectionHolder(connection));
            try {
                return work.run(readJdbc);
            } finally {
                TransactionSynchronizationManager.unbindResource(readerPool);
                rollbackQuietly(connection);
            }
        } catch (SQLException | DataAccessException failure) {
            throw SqliteErrors.wrap("reading " + file, failure);
        }
    }

    /**
     * Lends a reader connection, outside any transaction, for work that needs the JDBC connection itself.
     *
     * @param work what to do with it
     * @param <R> the result type
     * @return what {@code work} returned
     */
    public <R> R withReader(ConnectionWork<R> work) {
        requireOpen();
        try (Connection connection = readerPool.getConnection()) {
            return work.run(connection);
        } catch (SQLException | DataAccessException failure) {
            throw SqliteErrors.wrap("reading " + file, failure);
        }
    }

    /**
     * Runs single-statement reads on a reader connection borrowed per statement, outside any transaction.
     *
     * @param work the queries
     * @param <R> the result type
     * @return what {@code work} returned
     */
    public <R> R read(ReadWork<R> work) {
        requireOpen();
        try {
            return work.run(readJdbc);
        } catch (DataAccessException failure) {
            throw SqliteErrors.wrap("reading " + file, failure);
        }
    }

    /**
     * Runs SQLite's integrity (or quick) check and the foreign-key check over the whole file; a damaged or
     * unreadable file gives a failed result, never an exception.
     *
     * @param mode how thoroughly to check
     * @param maxErrors how many findings to report at most, 1 to 1000
     * @return the result
     * @throws IllegalArgumentException when {@code mode} is null or {@code maxErrors} is out of range
     */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        if (maxErrors < 1 || maxErrors > IntegrityStatements.MAX_ERRORS_LIMIT) {
            throw new IllegalArgumentException("maxErrors must be between 1 and " + IntegrityStatements.MAX_ERRORS_LIMIT
                    + ", got " + maxErrors);
        }
        long start = System.nanoTime();
        try {
            return withReader(connection -> IntegrityStatements.check(connection, mode, maxErrors));
        } catch (LocalQueueException unreadable) {
            return IntegrityStatements.unreadable(mode, maxErrors, unreadable.getMessage(), start);
        }
    }

    /**
     * Lists the distinct queue names in the file by skipping through the queue index, so the cost grows with the
     * number of queues, not of jobs.
     *
     * @return the names in order
     */
    public List<String> queueNames() {
        return read(jdbc -> jdbc.queryForList(QUEUE_NAMES, String.class));
    }

    /**
     * Releases this caller's reference; the last release closes every connection and stops the watcher.
     */
    @Override
    public void close() {
        synchronized (OPEN) {
            if (references == 0) {
                return;
            }
            references--;
            if (references > 0) {
                return;
            }
            OPEN.remove(directory);
            closed = true;
        }
        changes.close();
        writeLock.lock();
        try {
            writerPool.close();
            gate.close();
        } finally {
            writeLock.unlock();
        }
        readerPool.close();
    }

    private <R> Attempt<R> attempt(Connection connection, WriteWork<R> work) throws SQLException {
        try {
            control(connection, "BEGIN IMMEDIATE");
        } catch (SQLException failure) {
            if (SqliteErrors.isBusy(failure)) {
                return Attempt.busy(failure);
            }
            throw failure;
        }
        boolean committed = false;
        TransactionSynchronizationManager.bindResource(writerPool, new ConnectionHolder(connection));
        try {
            R value = work.run(writeJdbc);
            control(connection, "COMMIT");
            committed = true;
            return Attempt.done(value);
        } catch (RuntimeException | SQLException failure) {
            if (SqliteErrors.isBusy(failure)) {
                return Attempt.busy(failure);
            }
            throw failure;
        } finally {
            TransactionSynchronizationManager.unbindResource(writerPool);
            if (!committed) {
                rollbackQuietly(connection);
            }
        }
    }

    private void prepareWriter(Connection connection, DurabilityMode mode) throws SQLException {
        SQLiteConnection raw = connection.unwrap(SQLiteConnection.class);
        if (raw != preparedWriter) {
            raw.setBusyTimeout(0);
            execute(connection, "PRAGMA wal_autocheckpoint = " + WAL_AUTOCHECKPOINT_PAGES);
            preparedMode = null;
        }
        if (raw != preparedWriter || mode != preparedMode) {
            execute(connection, "PRAGMA synchronous = " + mode.synchronousLevel());
            preparedWriter = raw;
            preparedMode = mode;
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new LocalQueueException("database " + file + " is closed");
        }
    }

    private static Path prepareDirectory(Path directory) {
        if (directory == null) {
            throw new IllegalArgumentException("directory must not be null");
        }
        try {
            Files.createDirectories(directory);
        } catch (IOException | SecurityException failure) {
            throw new LocalQueueException("cannot create queue directory " + directory + ": " + failure, failure);
        }
        if (!Files.isDirectory(directory)) {
            throw new LocalQueueException("queue path " + directory + " is not a directory");
        }
        if (!Files.isWritable(directory)) {
            throw new LocalQueueException("queue directory " + directory + " is not writable");
        }
        try {
            return directory.toRealPath();
        } catch (IOException failure) {
            throw new LocalQueueException("cannot resolve queue directory " + directory + ": " + failure, failure);
        }
    }

    private static Database open(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new LocalQueueException(file + " is not a regular file");
        }
        if (Files.exists(file) && !Files.isWritable(file)) {
            throw new LocalQueueException(file + " is not writable");
        }
        String url = "jdbc:sqlite:" + file.toUri();
        String version = bootstrap(url, file);
        return new Database(directory, file, url, version);
    }

    /**
     * Checks the file before anything writes to it, switches it to WAL and creates or migrates the schema, all on
     * one short-lived connection that waits on SQLite's own busy handler.
     */
    private static String bootstrap(String url, Path file) {
        SQLiteDataSource source = dataSource(url, READ_BUSY_TIMEOUT_MS);
        try (Connection connection = source.getConnection()) {
            Schema.requireLocalQueueDatabase(connection, file);
            enableWal(connection, file);
            if (!Schema.isCurrent(connection)) {
                execute(connection, "BEGIN IMMEDIATE");
                try {
                    Schema.createOrMigrate(connection, file);
                    execute(connection, "COMMIT");
                } catch (SQLException | RuntimeException failure) {
                    rollbackQuietly(connection);
                    throw failure;
                }
            }
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT sqlite_version()")) {
                rows.next();
                return rows.getString(1);
            }
        } catch (SQLException failure) {
            throw new LocalQueueException("cannot open " + file + " as a localqueue database: "
                    + failure.getMessage(), failure);
        }
    }

    private static void enableWal(Connection connection, Path file) throws SQLException {
        String mode;
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA journal_mode = WAL")) {
            rows.next();
            mode = rows.getString(1);
        }
        if (!"wal".equalsIgnoreCase(mode)) {
            throw new LocalQueueException("cannot switch " + file + " to WAL mode (journal_mode is " + mode
                    + "); localqueue needs a local filesystem that supports shared memory");
        }
    }

    private static SQLiteDataSource dataSource(String url, int busyTimeoutMs) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(busyTimeoutMs);
        config.enforceForeignKeys(true);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl(url);
        return source;
    }

    private static HikariDataSource pool(String name, DataSource source, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setDataSource(source);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(1);
        config.setAutoCommit(true);
        config.setMaxLifetime(0);
        config.setIdleTimeout(0);
        config.setConnectionTimeout(TimeUnit.SECONDS.toMillis(30));
        return new HikariDataSource(config);
    }

    private static JdbcTemplate template(DataSource source) {
        JdbcTemplate template = new JdbcTemplate(source, false);
        template.setExceptionTranslator(new SQLExceptionSubclassTranslator());
        return template;
    }

    /**
     * Runs a transaction-control statement as a prepared statement, which a pooled connection's statement cache
     * keeps, so the hot path never parses {@code BEGIN} or {@code COMMIT} again.
     */
    private static void control(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.execute();
        }
    }

    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            control(connection, "ROLLBACK");
        } catch (SQLException failure) {
            // SQLite may already have rolled back (for example after SQLITE_FULL); nothing is left to undo.
            log.trace("Rollback found no open transaction", failure);
        }
    }

    @FunctionalInterface
    private interface AttemptRunner<R> {
        Attempt<R> run(Connection connection) throws SQLException;
    }

    private record Attempt<R>(@Nullable R value, @Nullable Throwable busy) {
        static <R> Attempt<R> done(@Nullable R value) {
            return new Attempt<>(value, null);
        }

        static <R> Attempt<R> busy(Throwable failure) {
            return new Attempt<>(null, failure);
        }
    }
}
