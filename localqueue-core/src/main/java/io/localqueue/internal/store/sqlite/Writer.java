package io.localqueue.internal.store.sqlite;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.WriteTransactions;
import io.localqueue.internal.time.Backoff;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Runs the write transactions of one file on its one writer connection. Threads of this JVM take an in-process lock
 * first, so they never contend inside SQLite; each attempt then takes its turn in the writers' line
 * ({@link WriteGate}) and runs one transaction through Spring's transaction manager ({@link WriteTransactions}) over
 * the writer connection, which begins it with {@code BEGIN IMMEDIATE} ({@link WriterDataSource}), with SQLite's busy
 * wait off. The statements run on the writer's {@link Session}, prepared once. An attempt that finds another process
 * holding SQLite's lock rolls back and, within the write's budget, tries again after a jittered pause taken outside
 * the in-process lock. Statements that cannot run inside a transaction ({@code VACUUM}) run through a
 * {@link JdbcTemplate} on the same connection.
 *
 * <p>Any other failure (a full disk, an I/O error, a damaged page) costs only the call that met it: the connection
 * is closed, which rolls back whatever SQLite left open and drops statements the driver may have left half-run, and
 * the next write opens a fresh one.
 */
final class Writer implements AutoCloseable {

    /**
     * WAL pages after which a commit of this JVM checkpoints (SQLite's default is 1,000). A checkpoint costs two
     * fsyncs however few pages it copies, and pages written again and again are copied once, so checkpointing every
     * 4,000 pages (a WAL of about 16 MB) costs a quarter as many fsyncs for the same commits.
     */
    static final int WAL_AUTOCHECKPOINT_PAGES = 4_000;

    /**
     * The writer connection's page cache, in KiB (SQLite's default is 2,000). Every write passes through this one
     * connection, and a large write transaction (an ingestion batch fanned out to several subscriptions, with their
     * unique indexes of event ids and identity keys) touches more pages than the default holds: past it, SQLite
     * spills dirty pages to the WAL mid-transaction and reads index pages back from the operating system. The cache
     * grows only as pages are used.
     */
    static final int CACHE_KIB = 32_768;

    /**
     * How often a write checks that the file it writes is still the one on disk. Removing the directory of an open
     * queue leaves SQLite committing to files no other process can see, lost when closed; a check costs a
     * {@code stat}, so writes look at most once a millisecond, which bounds that loss to commits of one millisecond.
     */
    static final long PLACE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final SqliteConnector connector;
    private final Path file;
    private final ReentrantLock lock = new ReentrantLock();
    private final WriteGate gate;
    private final WriterDataSource transactionSource = new WriterDataSource();
    private final WriteTransactions transactions = new WriteTransactions(transactionSource);
    private final JdbcTemplate maintenance = maintenance(transactionSource);
    private @Nullable Session session;
    private @Nullable DurabilityMode sessionMode;
    private boolean closed;
    private final @Nullable Object fileKey;
    private long placeCheckedAt = System.nanoTime();

    /**
     * Creates the writer of a file and opens its connection, waiting on SQLite's busy handler like a reader.
     *
     * @param connector opens the connection
     * @throws SQLException when the file cannot be opened
     */
    public Writer(SqliteConnector connector) throws SQLException {
        this.connector = connector;
        this.file = connector.file();
        this.gate = new WriteGate(file);
        this.session = openSession();
        this.fileKey = fileKey(file);
    }

    /**
     * Runs {@code work} in one write transaction at {@code durability}, retrying the whole transaction while
     * another process holds the write lock.
     *
     * @param transaction what the transaction does, which names its {@link Failpoints}
     * @param durability the synchronous level of this commit
     * @param retryBudgetNanos how long to keep trying on lock contention; zero makes one attempt
     * @param lineWaitNanos how long each attempt may wait for its turn in the writers' line; zero only takes a free
     *                      turn
     * @param ensureOpen throws when the caller was closed, checked before every attempt
     * @param work the statements
     * @param <R> the result type
     * @return what {@code work} returned, after the commit
     * @throws DatabaseBusyException when the write lock stayed taken for the whole budget
     */
    public <R extends @Nullable Object> R write(String transaction, DurabilityMode durability, long retryBudgetNanos,
                                                long lineWaitNanos, Runnable ensureOpen, SessionWork<R> work) {
        return retrying(durability, retryBudgetNanos, lineWaitNanos, ensureOpen,
                writer -> transaction(transaction, writer, work));
    }

    /**
     * Runs one statement that cannot be inside a transaction, such as {@code VACUUM}, retrying on lock contention
     * like {@link #write}.
     *
     * @param transaction what the statement does, which names its {@link Failpoints}
     * @param sql the statement
     * @param budgetNanos how long to keep trying on lock contention
     * @param ensureOpen throws when the caller was closed, checked before every attempt
     */
    public void writeOutsideTransaction(String transaction, String sql, long budgetNanos, Runnable ensureOpen) {
        retrying(DurabilityMode.RELAXED, budgetNanos, budgetNanos, ensureOpen, writer -> {
            Failpoints.reach(transaction, Failpoints.Stage.BEFORE_COMMIT);
            try {
                maintenance.execute(sql);
            } catch (DataAccessException failure) {
                if (SqliteErrors.isBusy(failure)) {
                    return Attempt.busy(failure);
                }
                throw failure;
            }
            Failpoints.reach(transaction, Failpoints.Stage.AFTER_COMMIT);
            return Attempt.done(null);
        });
    }

    /** Closes the writer connection and the writers' line; writes afterwards fail. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                discardSession();
                gate.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Attempts a write until it gets SQLite's lock or its budget is spent; each attempt first takes the writers'
     * line, waiting for it at most {@code lineWaitNanos} (zero: only when it is free at once).
     */
    private <R extends @Nullable Object> R retrying(DurabilityMode durability, long retryBudgetNanos,
                                                    long lineWaitNanos, Runnable ensureOpen, AttemptRunner<R> runner) {
        Backoff backoff = new Backoff(FIRST_BACKOFF_NANOS, MAX_BACKOFF_NANOS, retryBudgetNanos);
        while (true) {
            ensureOpen.run();
            Throwable busy;
            lock.lock();
            try {
                Session writer = prepared(durability);
                if (gate.enter(lineWaitNanos)) {
                    try {
                        Attempt<R> attempt = attempt(writer, ensureOpen, runner);
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
                        throw new DatabaseBusyException("database is locked: another process of this library kept "
                                + "its place in the writers' line of " + file + " for "
                                + TimeUnit.NANOSECONDS.toMillis(lineWaitNanos) + " ms",
                                Duration.ofNanos(lineWaitNanos), busy);
                    }
                }
            } finally {
                lock.unlock();
            }
            backoff.pause(file.toString(), busy);
        }
    }

    private <R extends @Nullable Object> Attempt<R> attempt(Session writer, Runnable ensureOpen,
                                                            AttemptRunner<R> runner) {
        try {
            return runner.run(writer);
        } catch (SQLException failure) {
            discardSession();
            ensureOpen.run();
            throw SqliteErrors.wrap("writing to " + file, failure);
        } catch (RuntimeException failure) {
            if (SqliteErrors.fromSqlite(failure)) {
                discardSession();
            }
            if (failure instanceof DataAccessException) {
                throw SqliteErrors.wrap("writing to " + file, failure);
            }
            throw failure;
        }
    }

    private <R extends @Nullable Object> Attempt<R> transaction(String name, Session writer, SessionWork<R> work)
            throws SQLException {
        R value;
        try {
            value = transactions.run(connection -> {
                R done = work.run(writer);
                Failpoints.reach(name, Failpoints.Stage.BEFORE_COMMIT);
                return done;
            });
        } catch (WriteTransactions.Failure failure) {
            if (SqliteErrors.isBusy(failure.sql())) {
                return Attempt.busy(failure.sql());
            }
            throw failure.sql();
        } catch (RuntimeException failure) {
            if (SqliteErrors.isBusy(failure)) {
                return Attempt.busy(failure);
            }
            throw failure;
        }
        Failpoints.reach(name, Failpoints.Stage.AFTER_COMMIT);
        return Attempt.done(value);
    }

    /** Returns the writer session with the synchronous level of {@code mode}; the caller holds the lock. */
    private Session prepared(DurabilityMode mode) {
        if (closed) {
            throw new LocalQueueException("database " + file + " is closed");
        }
        requireFileInPlace();
        Session current = session;
        if (current == null) {
            try {
                current = openSession();
            } catch (SQLException failure) {
                throw SqliteErrors.wrap("reopening the writer connection to " + file, failure);
            }
            session = current;
        }
        if (mode != sessionMode) {
            try {
                current.execute("PRAGMA synchronous = " + mode.synchronousLevel());
            } catch (SQLException failure) {
                discardSession();
                throw SqliteErrors.wrap("setting synchronous = " + mode.synchronousLevel() + " on " + file, failure);
            }
            sessionMode = mode;
        }
        return current;
    }

    /**
     * Throws when the file was deleted or replaced since it was opened (checked at most every
     * {@link #PLACE_CHECK_NANOS}); the caller holds the lock.
     */
    private void requireFileInPlace() {
        long now = System.nanoTime();
        if (fileKey == null || now - placeCheckedAt < PLACE_CHECK_NANOS) {
            return;
        }
        Object current;
        try {
            current = fileKey(file);
        } catch (SQLException gone) {
            current = null;
        }
        if (current == null || !current.equals(fileKey)) {
            throw new LocalQueueException(file + (current == null ? " no longer exists" : " was replaced")
                    + " since this process opened it (was its directory removed?); writes stop, so that nothing more "
                    + "is committed to a file no other process sees. Close the queue and open it again.");
        }
        placeCheckedAt = now;
    }

    /** Returns the file's identity on disk (device and inode on Unix), or null where the platform has none. */
    private static @Nullable Object fileKey(Path file) throws SQLException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        } catch (IOException missing) {
            throw new SQLException("cannot read the attributes of " + file + ": " + missing, missing);
        }
    }

    /** Closes the writer connection after a failure; the caller holds the lock, and the next write reopens it. */
    private void discardSession() {
        Session current = session;
        session = null;
        sessionMode = null;
        transactionSource.clear();
        if (current != null) {
            current.close();
        }
    }

    /**
     * Opens the writer connection: it opened waiting on SQLite's busy handler like any reader, and then turns that
     * off, since writes retry on their own, outside the in-process lock.
     */
    private Session openSession() throws SQLException {
        Session opened = connector.open();
        try {
            opened.connection().unwrap(SQLiteConnection.class).setBusyTimeout(0);
            opened.execute("PRAGMA wal_autocheckpoint = " + WAL_AUTOCHECKPOINT_PAGES);
            opened.execute("PRAGMA cache_size = -" + CACHE_KIB);
        } catch (SQLException failure) {
            opened.close();
            throw failure;
        }
        transactionSource.use(opened, this::discardSession);
        return opened;
    }

    /** A template whose failures carry SQLite's exception as it was, with no lookup of error codes by database name. */
    private static JdbcTemplate maintenance(WriterDataSource source) {
        JdbcTemplate template = new JdbcTemplate(source);
        template.setExceptionTranslator(new SQLExceptionSubclassTranslator());
        return template;
    }

    @FunctionalInterface
    private interface AttemptRunner<R extends @Nullable Object> {
        Attempt<R> run(Session writer) throws SQLException;
    }

    private record Attempt<R extends @Nullable Object>(@Nullable R value, @Nullable Throwable busy) {
        static <R extends @Nullable Object> Attempt<R> done(@Nullable R value) {
            return new Attempt<>(value, null);
        }

        static <R extends @Nullable Object> Attempt<R> busy(Throwable failure) {
            return new Attempt<>(null, failure);
        }
    }
}
