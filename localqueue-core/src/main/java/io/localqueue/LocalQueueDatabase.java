package io.localqueue;

import io.localqueue.internal.engine.Database;
import io.localqueue.internal.store.sqlite.SqliteQueueStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A shared handle on one localqueue database file, for applications that open many queues on it: all of them use
 * one writer connection and one small reader pool per file and JVM. Closing the handle does not close queues built
 * from it, but they must not be used after the last handle and queue on the file are closed.
 *
 * <pre>{@code
 * try (LocalQueueDatabase database = LocalQueueDatabase.open(Path.of("./data"))) {
 *     SimpleQueue<Email> emails = SimpleQueue.builder(database, Email.class).name("emails").build();
 *     SimpleQueue<Invoice> invoices = SimpleQueue.builder(database, Invoice.class).name("invoices").build();
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class LocalQueueDatabase implements AutoCloseable {

    /** The queue directory applications use when they name none, relative to the working directory. */
    public static final String DEFAULT_DIRECTORY = "./data";

    /** The file name inside the queue directory; the Python library uses the same one. */
    public static final String FILE_NAME = SqliteQueueStore.FILE_NAME;

    /**
     * Queue names the event bus uses for its subscriptions start with this; {@link #queueNames()} lists them with the
     * application's own queues.
     */
    public static final String BUS_QUEUE_PREFIX = "__bus__:";

    private final Path path;
    private final Path file;
    private final Database database;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocalQueueDatabase(Path path, Path file, Database database) {
        this.path = path;
        this.file = file;
        this.database = database;
    }

    /**
     * Opens the database in a directory, creating the directory and the file when missing; a file that is not a
     * localqueue database is refused and left untouched.
     *
     * @param directory the queue directory
     * @return a handle to close when done
     * @throws LocalQueueException when the directory cannot be created or written, or the file is not usable
     */
    public static LocalQueueDatabase open(Path directory) {
        if (directory == null) {
            throw new IllegalArgumentException("directory must not be null");
        }
        Path canonical = SqliteQueueStore.prepareDirectory(directory);
        return new LocalQueueDatabase(directory, canonical.resolve(FILE_NAME), acquireCanonical(canonical));
    }

    /**
     * Opens (or joins) the database of a queue directory for a queue built on its own, without a handle.
     *
     * @param directory the queue directory
     * @return a reference to close with the queue
     */
    static Database acquire(Path directory) {
        return acquireCanonical(SqliteQueueStore.prepareDirectory(directory));
    }

    /** The one place that chooses the store of a queue directory: the SQLite file in it, shared in this JVM. */
    private static Database acquireCanonical(Path canonicalDirectory) {
        return Database.acquire(canonicalDirectory, SqliteQueueStore::open);
    }

    /**
     * Returns the directory exactly as it was given to {@link #open(Path)}.
     *
     * @return the queue directory
     */
    public Path path() {
        return path;
    }

    /**
     * Returns the absolute path of the database file, with symbolic links resolved.
     *
     * @return the {@value #FILE_NAME} file
     */
    public Path file() {
        return file;
    }

    /**
     * Returns the version of the SQLite library in use, such as "3.54.1".
     *
     * @return the SQLite version
     */
    public String sqliteVersion() {
        return database.store().engineVersion();
    }

    /**
     * Lists the names of the queues that hold at least one job in the file, in name order, reading only.
     *
     * @return the queue names, including event-bus queues (named {@value #BUS_QUEUE_PREFIX}…)
     */
    public List<String> queueNames() {
        requireOpen();
        return database.queueNames();
    }

    /**
     * Runs SQLite's integrity check ({@code FULL}) or quick check ({@code QUICK}) and the foreign-key check over
     * the whole file, like {@link SimpleQueue#checkIntegrity(IntegrityCheckMode, int)}.
     *
     * @param mode how thoroughly to check
     * @param maxErrors how many findings to report at most, 1 to 1000
     * @return the result; a damaged file gives {@code ok == false}, never an exception
     */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        requireOpen();
        return database.checkIntegrity(mode, maxErrors);
    }

    /**
     * Releases this handle; idempotent, and the file's connections close once no handle or queue uses them.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            database.close();
        }
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return true after close
     */
    public boolean isClosed() {
        return closed.get();
    }

    Database acquireShared() {
        requireOpen();
        return database.retain();
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("database handle for " + path + " is closed");
        }
    }

    @Override
    public String toString() {
        return "LocalQueueDatabase[" + file + "]";
    }
}
