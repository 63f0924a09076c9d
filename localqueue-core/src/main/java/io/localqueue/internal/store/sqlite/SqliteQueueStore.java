package io.localqueue.internal.store.sqlite;

import io.localqueue.BackupResult;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.JobState;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.ClaimTurn;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.QueuePause;
import io.localqueue.internal.store.QueueLimits;
import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.SnapshotLocation;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.wakeup.Wakeups;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The queue store on one SQLite file in a queue directory, in the layout the Python library shares: one writer
 * connection for every write of this JVM, a few read connections that never take the write lock, a
 * {@code data_version} watch for other processes' commits, and this process's slot among those that claim
 * ({@link LiveProcesses}), which its receipts name.
 */
public final class SqliteQueueStore implements QueueStore {

    /** The database file inside a queue directory; the Python library uses the same name. */
    public static final String FILE_NAME = FileLocation.FILE_NAME;

    private static final int READERS = 4;

    /**
     * Copies the write-ahead log into the file and empties it. A {@code VACUUM} of a file in WAL mode writes the
     * rebuilt file into the log, and the file itself shrinks only once a checkpoint has copied all of it, so without
     * this one it keeps its old size until a later commit fills the log; a reader of another process that still looks
     * at an older snapshot leaves the checkpoint incomplete, and the file shrinks at a later one.
     */
    private static final String CHECKPOINT_TRUNCATE = "PRAGMA wal_checkpoint(TRUNCATE)";

    private final Path directory;
    private final Path file;
    private final String sqliteVersion;
    private final Writer writer;
    private final ReaderPool readers;
    private final Wakeups wakeups;
    private final ClaimTurns claimTurns;
    private final LiveProcesses live;
    private final @Nullable SnapshotLocation snapshot;
    private volatile boolean closed;

    private SqliteQueueStore(Path directory, SqliteConnector connector, String sqliteVersion, Writer writer,
                             @Nullable SnapshotLocation snapshot) {
        this.directory = directory;
        this.snapshot = snapshot;
        this.file = connector.file();
        this.sqliteVersion = sqliteVersion;
        this.writer = writer;
        this.readers = new ReaderPool(connector, READERS);
        this.wakeups = new Wakeups(String.valueOf(directory.getFileName()),
                new DataVersionWatch(connector.dataSource(), directory, FILE_NAME));
        this.claimTurns = new ClaimTurns(file);
        this.live = LiveProcesses.open(file);
    }

    /**
     * Opens the store of a prepared queue directory: checks the file before anything writes to it, switches it to
     * WAL and creates or migrates the schema.
     *
     * @param directory a directory {@link FileLocation#prepare} prepared
     * @return the open store
     * @throws LocalQueueException when the file cannot be used or is not a localqueue database (left untouched)
     */
    public static SqliteQueueStore open(Path directory) {
        return open(directory, null);
    }

    /**
     * Opens a copy of a queue directory's file in the location's scratch directory, taken through a read-only
     * connection so the file itself is never written; the copy is migrated as any file is, and closing the store
     * deletes the scratch directory.
     *
     * @param location the file and the scratch directory
     * @return the open store on the copy
     * @throws LocalQueueException when the file is missing, not a localqueue database, of a newer layout, or busy
     */
    public static SqliteQueueStore openSnapshot(SnapshotLocation location) {
        try {
            FileSnapshot.copy(location.file(), location.scratch().resolve(FILE_NAME));
            return open(location.scratch(), location);
        } catch (RuntimeException failure) {
            FileSnapshot.delete(location.scratch());
            throw failure;
        }
    }

    /**
     * Backs a queue directory's file up as {@link #backup} does, without opening it as a queue: through a read-only
     * connection, so a file of the Python library's layout and its backup keep that layout.
     *
     * @param directory the queue directory
     * @param destination a new directory inside an existing one
     * @return what was copied and how it was verified
     */
    public static BackupResult backupAsItIs(Path directory, Path destination) {
        return BackupOperation.runAsItIs(directory, destination);
    }

    /**
     * Tells, reading only, whether opening a queue file would leave its layout as it is.
     *
     * @param file an existing queue file
     * @return false for a file the Python library or an earlier release wrote, to which opening adds this release's
     *         tables, columns and indexes
     * @throws LocalQueueException when the file is missing, not a localqueue database, or of a newer layout
     */
    public static boolean isCurrentLayout(Path file) {
        return FileSnapshot.isCurrent(file);
    }

    private static SqliteQueueStore open(Path directory, @Nullable SnapshotLocation snapshot) {
        Path file = directory.resolve(FILE_NAME);
        if (Files.isSymbolicLink(file) && !Files.exists(file)) {
            throw new LocalQueueException(file + " is a symbolic link to a file that does not exist; it was left as "
                    + "it is");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new LocalQueueException(file + " is not a regular file");
        }
        if (Files.exists(file) && !Files.isWritable(file)) {
            throw new LocalQueueException(file + " is not writable");
        }
        FileInspection.requireLocalQueueFile(file);
        SqliteConnector connector = new SqliteConnector(file);
        String version = bootstrap(connector);
        Writer writer;
        try {
            writer = new Writer(connector);
        } catch (SQLException failure) {
            throw new LocalQueueException("cannot open " + file + " for writing: " + failure.getMessage(), failure);
        }
        return new SqliteQueueStore(directory, connector, version, writer, snapshot);
    }

    @Override
    public <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work) {
        ensureOpen.run();
        requireOpen();
        return writer.write(options.transaction(), options.durability(), options.retryBudgetNanos(),
                options.lineWaitNanos(), ensureOpen, session -> work.run(new SqliteWrites(session, file, live)));
    }

    @Override
    public <R> R writeWithin(Connection connection, StoreWork<R> work) {
        requireOpen();
        try {
            return CallerTransaction.run(connection, file, session -> work.run(new SqliteWrites(session, file, live)));
        } catch (SQLException failure) {
            throw SqliteErrors.wrap("writing to " + file + " through the caller's connection", failure);
        }
    }

    @Override
    public boolean executionPending(String executionId) {
        return read(session -> ExecutionStatements.pending(session, executionId));
    }

    @Override
    public List<ExecutionRow> executions(String bus) {
        return read(session -> ExecutionStatements.list(session, bus));
    }

    @Override
    public List<String> endedHolders(String queue) {
        List<String> named = read(session -> ClaimStatements.holders(session, queue));
        if (named.isEmpty()) {
            return named;
        }
        String own = live.holder();
        List<String> ended = new ArrayList<>();
        for (String holder : named) {
            if (!holder.equals(own) && live.ended(holder)) {
                ended.add(holder);
            }
        }
        return ended;
    }

    @Override
    public ClaimProbe probe(String queue) {
        return read(session -> ClaimStatements.probe(session, queue));
    }

    @Override
    public @Nullable QueuePause pause(String queue) {
        return read(session -> PauseStatements.pauseOf(session, queue));
    }

    @Override
    public QueueLimits limits(String queue) {
        return read(session -> LimitStatements.limits(session, queue));
    }

    @Override
    public boolean isFull(String queue, long limit) {
        return read(session -> EnqueueStatements.isFull(session, queue, limit));
    }

    @Override
    public QueueStats stats(String queue) {
        return read(session -> ReadStatements.stats(session, queue));
    }

    @Override
    public List<FailedRow> listFailed(String queue, int limit, int offset) {
        return read(session -> ReadStatements.listFailed(session, queue, limit, offset));
    }

    @Override
    public List<JobRow> listJobs(JobPageRequest request) {
        return read(session -> JobStatements.page(session, request));
    }

    @Override
    public @Nullable JobRow job(String queue, long id) {
        return read(session -> JobStatements.job(session, queue, id));
    }

    @Override
    public List<JobRow> jobsPut(String queue, long afterId, long throughId, int limit) {
        return read(session -> JobStatements.put(session, queue, afterId, throughId, limit));
    }

    @Override
    public List<JobRow> jobs(String queue, long[] ids) {
        return read(session -> JobStatements.byIds(session, queue, ids));
    }

    @Override
    public long lastJobId() {
        return read(JobStatements::lastId);
    }

    @Override
    public long countJobs(String queue, JobState state, long now, long cap) {
        return read(session -> JobStatements.count(session, queue, state, now, cap));
    }

    @Override
    public List<ReadyRow> listReady(String queue, int limit, int offset) {
        return read(session -> ReadStatements.listReady(session, queue, limit, offset));
    }

    @Override
    public QueueSnapshot snapshot(String queue, Clock clock) {
        return read(session -> SnapshotStatements.snapshot(session, file, sqliteVersion, queue, clock));
    }

    @Override
    public List<RecurringRow> recurringJobs() {
        return read(RecurringStatements::rows);
    }

    @Override
    public List<String> queueNames() {
        return read(ReadStatements::queueNames);
    }

    @Override
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        long start = System.nanoTime();
        try {
            return read(session -> IntegrityStatements.check(session.connection(), mode, maxErrors));
        } catch (LocalQueueException unreadable) {
            return IntegrityStatements.unreadable(mode, maxErrors, unreadable.getMessage(), start);
        }
    }

    @Override
    public BackupResult backup(Path destination) {
        requireOpen();
        return BackupOperation.run(directory, readers, destination);
    }

    @Override
    public void vacuum(Runnable ensureOpen) {
        ensureOpen.run();
        requireOpen();
        writer.writeOutsideTransaction("vacuum", "VACUUM", WriteOptions.WRITE_BUDGET_NANOS, ensureOpen);
        writer.writeOutsideTransaction("checkpoint after vacuum", CHECKPOINT_TRUNCATE, WriteOptions.WRITE_BUDGET_NANOS,
                ensureOpen);
    }

    @Override
    public ClaimTurn claimTurn(String queue) {
        return claimTurns.turn(queue);
    }

    @Override
    public Wakeups wakeups() {
        return wakeups;
    }

    @Override
    public String location() {
        return snapshot == null ? file.toString() : snapshot.file() + " (a copy taken for reading)";
    }

    @Override
    public String engine() {
        return "SQLite";
    }

    @Override
    public String engineVersion() {
        return sqliteVersion;
    }

    /**
     * Returns the database file.
     *
     * @return the file, with symbolic links in its directory resolved
     */
    public Path file() {
        return file;
    }

    @Override
    public void close() {
        boolean wasOpen = !closed;
        closed = true;
        claimTurns.close();
        if (wasOpen) {
            live.close();
        }
        wakeups.close();
        writer.close();
        readers.close();
        if (wasOpen && snapshot != null) {
            FileSnapshot.delete(snapshot.scratch());
        }
    }

    private <R> R read(SessionWork<R> work) {
        requireOpen();
        try {
            return readers.withSession(work);
        } catch (SQLException failure) {
            throw SqliteErrors.wrap("reading " + file, failure);
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new LocalQueueException("database " + file + " is closed");
        }
    }

    /**
     * Checks the file, switches it to WAL and creates or migrates the schema, all on one short-lived connection that
     * waits on SQLite's own busy handler, and returns SQLite's version.
     */
    private static String bootstrap(SqliteConnector connector) {
        Path file = connector.file();
        try (Session session = connector.open()) {
            SqliteSchema.requireLocalQueueDatabase(session.connection(), file);
            enableWal(session, file);
            if (!SqliteSchema.isCurrent(session.connection())) {
                session.execute("BEGIN IMMEDIATE");
                try {
                    SqliteSchema.createOrMigrate(session.connection(), file);
                    Failpoints.reach("migration", Failpoints.Stage.BEFORE_COMMIT);
                    session.execute("COMMIT");
                    Failpoints.reach("migration", Failpoints.Stage.AFTER_COMMIT);
                } catch (SQLException | RuntimeException failure) {
                    rollbackQuietly(session);
                    throw failure;
                }
            }
            return session.query("SELECT sqlite_version()", statement -> { }, rows -> {
                rows.next();
                return rows.getString(1);
            });
        } catch (SQLException failure) {
            throw new LocalQueueException("cannot open " + file + " as a localqueue database: "
                    + failure.getMessage(), failure);
        }
    }

    private static void enableWal(Session session, Path file) throws SQLException {
        String mode = session.query("PRAGMA journal_mode = WAL", statement -> { },
                rows -> rows.next() ? rows.getString(1) : "unknown");
        if (!"wal".equalsIgnoreCase(mode)) {
            throw new LocalQueueException("cannot switch " + file + " to WAL mode (journal_mode is " + mode
                    + "); localqueue needs a local filesystem that supports shared memory");
        }
    }

    private static void rollbackQuietly(Session session) {
        try {
            session.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // nothing left to undo
        }
    }
}
