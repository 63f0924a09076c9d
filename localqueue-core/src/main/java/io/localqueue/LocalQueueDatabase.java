package io.localqueue;

import io.localqueue.internal.engine.Database;
import io.localqueue.internal.engine.DatabaseHandles;
import io.localqueue.internal.store.DataSourceLocation;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.ServerSettings;
import io.localqueue.internal.store.SnapshotLocation;
import io.localqueue.internal.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A shared handle on one localqueue database, for applications that open many queues on it: a SQLite file in a
 * queue directory, whose queues in this JVM use one writer connection and one small reader pool, or a schema of a
 * PostgreSQL database (with the {@code localqueue-postgresql} module), whose queues share one connection pool.
 * Closing the handle does not close queues built from it, but they must not be used after the last handle and queue
 * on the database are closed.
 *
 * <pre>{@code
 * try (LocalQueueDatabase database = LocalQueueDatabase.open(Path.of("./data"))) {
 *     SimpleQueue<Email> emails = SimpleQueue.builder(database, Email.class).name("emails").build();
 *     SimpleQueue<Invoice> invoices = SimpleQueue.builder(database, Invoice.class).name("invoices").build();
 * }
 * }</pre>
 *
 * <p>On PostgreSQL, either on a pool of the application's, which stays the application's to close, or on one the
 * handle opens and closes:
 *
 * <pre>{@code
 * LocalQueueDatabase onPool = LocalQueueDatabase.open(dataSource);
 * LocalQueueDatabase onUrl = LocalQueueDatabase.server("jdbc:postgresql://db.internal/app")
 *         .username("app").password(secret).schema("jobs").poolSize(10).open();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class LocalQueueDatabase implements AutoCloseable {

    /** The queue directory applications use when they name none, relative to the working directory. */
    public static final String DEFAULT_DIRECTORY = "./data";

    /** The file name inside the queue directory; the Python library uses the same one. */
    public static final String FILE_NAME = FileLocation.FILE_NAME;

    /**
     * Queue names the event bus uses for its subscriptions start with this; {@link #queueNames()} lists them with the
     * application's own queues.
     */
    public static final String BUS_QUEUE_PREFIX = "__bus__:";

    /**
     * The schema that holds the tables on a PostgreSQL database when none is named.
     *
     * @since 0.1.0
     */
    public static final String DEFAULT_SCHEMA = ServerSettings.DEFAULT_SCHEMA;

    static {
        DatabaseHandles.register(LocalQueueDatabase.class, LocalQueueDatabase::acquireShared);
    }

    private final @Nullable Path path;
    private final @Nullable Path file;
    private final Database database;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocalQueueDatabase(@Nullable Path path, @Nullable Path file, Database database) {
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
            throw new InvalidArgumentException("directory", "directory must not be null");
        }
        FileLocation location = FileLocation.prepare(directory);
        return new LocalQueueDatabase(directory, location.file(), Database.acquire(location, Stores::open));
    }

    /**
     * Opens a consistent copy of a queue directory's file for reading, taken through a read-only connection so that
     * the file itself is never written, not even migrated (SQLite creates its {@code -wal} and {@code -shm} sidecars
     * for any reader and leaves them empty): for a look at a file the Python library or an earlier release wrote
     * without changing it. The copy is this handle's alone: what is written through it is lost when the copy is
     * deleted, once the handle and every queue built on it are closed.
     *
     * @param directory an existing queue directory holding its file
     * @return a handle on the copy, whose {@link #location()} names the file it was taken from
     * @throws LocalQueueException when the directory holds no file, the file is not a localqueue database or is of a
     *                             newer layout, or another process held it past SQLite's busy wait
     * @since 0.1.0
     */
    public static LocalQueueDatabase openSnapshot(Path directory) {
        if (directory == null) {
            throw new InvalidArgumentException("directory", "directory must not be null");
        }
        FileLocation source = FileLocation.existing(directory);
        Path scratch;
        try {
            scratch = Files.createTempDirectory("localqueue-snapshot");
        } catch (IOException failure) {
            throw new LocalQueueException("cannot create a scratch directory for a copy of " + source.file() + ": "
                    + failure, failure);
        }
        SnapshotLocation location = new SnapshotLocation(source.directory(), scratch);
        return new LocalQueueDatabase(directory, source.file(), Database.acquire(location, Stores::open));
    }

    /**
     * Backs a queue directory's file up as {@link SimpleQueue#backup(Path)} does (one consistent copy, verified, into a
     * new directory, while other processes work on the file), without opening it as a queue: the copy is taken through
     * a read-only connection, so a file of the Python library's (or an earlier release's) layout is not changed, and
     * its backup keeps that layout.
     *
     * @param directory an existing queue directory holding its file
     * @param destination a directory that must not exist yet, inside an existing one, outside the queue directory
     * @return what was copied and how it was verified
     * @throws LocalQueueException when the directory holds no file, the file is not a localqueue database or is of a
     *                             newer layout, the destination exists, or the copy fails its check
     * @since 0.1.0
     */
    public static BackupResult backupFile(Path directory, Path destination) {
        if (directory == null) {
            throw new InvalidArgumentException("directory", "directory must not be null");
        }
        return Stores.backupAsItIs(FileLocation.existing(directory), destination);
    }

    /**
     * Tells, reading only, whether {@link #open(Path)} would leave a queue file's layout as it is: false for a file
     * the Python library or an earlier release wrote, to which opening adds this release's tables, columns and
     * indexes (rows are never rewritten, and the Python library keeps working on the file).
     *
     * @param directory an existing queue directory holding its file
     * @return true when the file already has this release's layout
     * @throws LocalQueueException when the directory holds no file, or the file is not a localqueue database or is of
     *                             a newer layout
     * @since 0.1.0
     */
    public static boolean isCurrentLayout(Path directory) {
        if (directory == null) {
            throw new InvalidArgumentException("directory", "directory must not be null");
        }
        return Stores.isCurrentLayout(FileLocation.existing(directory));
    }

    /**
     * Opens the tables in the {@value #DEFAULT_SCHEMA} schema of the PostgreSQL database a pool of the application's
     * reaches, creating or migrating them; the pool stays the application's, and closing the handle leaves it open.
     *
     * @param dataSource the pool; one handle per pool and schema is shared by every queue in this JVM
     * @return a handle to close when done
     * @throws LocalQueueException when the data source reaches no database localqueue can use, the
     *                             {@code localqueue-postgresql} module is missing, or the schema holds other tables
     * @since 0.1.0
     */
    public static LocalQueueDatabase open(DataSource dataSource) {
        return open(dataSource, DEFAULT_SCHEMA);
    }

    /**
     * Opens the tables in a schema of the PostgreSQL database a pool of the application's reaches, creating the
     * schema and tables when missing; the pool stays the application's.
     *
     * @param dataSource the pool
     * @param schema a lower-case identifier, such as {@value #DEFAULT_SCHEMA}
     * @return a handle to close when done
     * @throws IllegalArgumentException when an argument is null or the schema is not a lower-case identifier
     * @throws LocalQueueException when the data source reaches no database localqueue can use, the
     *                             {@code localqueue-postgresql} module is missing, or the schema holds other tables
     * @since 0.1.0
     */
    public static LocalQueueDatabase open(DataSource dataSource, String schema) {
        return new LocalQueueDatabase(null, null, acquire(dataSource, schema));
    }

    /**
     * Starts opening a PostgreSQL database by its JDBC URL, on a connection pool the handle opens and closes.
     *
     * @param jdbcUrl such as {@code jdbc:postgresql://db.internal:5432/app}
     * @return the builder
     * @throws IllegalArgumentException when the URL is blank
     * @since 0.1.0
     */
    public static ServerBuilder server(String jdbcUrl) {
        if (jdbcUrl == null || jdbcUrl.isBlank()) {
            throw new InvalidArgumentException("jdbcUrl", "jdbcUrl must not be blank");
        }
        return new ServerBuilder(jdbcUrl);
    }

    /** Opens (or joins) the tables of a schema reached through a caller's data source. */
    static Database acquire(DataSource dataSource, String schema) {
        if (dataSource == null) {
            throw new InvalidArgumentException("dataSource", "dataSource must not be null");
        }
        return Database.acquire(new DataSourceLocation(dataSource, ServerSettings.requireValidSchema(schema)),
                Stores::open);
    }

    /**
     * Opens (or joins) the database of a queue directory for a queue built on its own, without a handle.
     *
     * @param directory the queue directory
     * @return a reference to close with the queue
     */
    static Database acquire(Path directory) {
        return Database.acquire(FileLocation.prepare(directory), Stores::open);
    }

    /**
     * Returns the directory exactly as it was given to {@link #open(Path)}.
     *
     * @return the queue directory
     * @throws UnsupportedOperationException when the database is on a server, which has no directory
     */
    public Path path() {
        return requireFile(path);
    }

    /**
     * Returns the absolute path of the database file, with symbolic links resolved.
     *
     * @return the {@value #FILE_NAME} file
     * @throws UnsupportedOperationException when the database is on a server, which has no file
     */
    public Path file() {
        return requireFile(file);
    }

    /**
     * Tells whether the database is a SQLite file, rather than tables on a database server.
     *
     * @return true for a file, which {@link #path()} and {@link #file()} then name
     * @since 0.1.0
     */
    public boolean isFile() {
        return file != null;
    }

    /**
     * Describes where the queues are kept, for messages and reports: the file, or the server's URL and the schema.
     *
     * @return such as {@code /srv/app/data/localqueue.db} or {@code jdbc:postgresql://db/app schema localqueue}
     * @since 0.1.0
     */
    public String location() {
        return database.store().location();
    }

    /**
     * Names the database engine that keeps the queues.
     *
     * @return "SQLite" or "PostgreSQL"
     * @since 0.1.0
     */
    public String engine() {
        return database.store().engine();
    }

    /**
     * Returns the version of the database engine in use: the SQLite library's or the server's.
     *
     * @return such as "3.54.1" or "18.1"
     * @since 0.1.0
     */
    public String engineVersion() {
        return database.store().engineVersion();
    }

    /**
     * Returns the version of the SQLite library in use, such as "3.54.1".
     *
     * @return the SQLite version
     * @throws UnsupportedOperationException when the database is on a server: see {@link #engineVersion()}
     */
    public String sqliteVersion() {
        requireFile(file);
        return database.store().engineVersion();
    }

    /**
     * Lists the names of the queues that hold at least one job, or whose pause or limits are stored (so a paused queue
     * that emptied is still named), in name order, reading only.
     *
     * @return the queue names, including event-bus queues (named {@value #BUS_QUEUE_PREFIX}…)
     */
    public List<String> queueNames() {
        requireOpen();
        return database.queueNames();
    }

    /**
     * Reads the highest id a job of any queue holds now, reading only; ids only grow, so a job put later has a higher
     * one, which is where {@link SimpleQueue#listJobsPut} starts a watch.
     *
     * @return the id, 0 when the database holds no job
     * @since 0.1.0
     */
    public long lastJobId() {
        requireOpen();
        return database.store().lastJobId();
    }

    /**
     * Runs SQLite's integrity check ({@code FULL}) or quick check ({@code QUICK}) and the foreign-key check over
     * the whole file, like {@link SimpleQueue#checkIntegrity(IntegrityCheckMode, int)}.
     *
     * @param mode how thoroughly to check
     * @param maxErrors how many findings to report at most, 1 to 1000
     * @return the result; a damaged file gives {@code ok == false}, never an exception
     * @throws LocalQueueException when the database is on a server that cannot be reached, which says nothing of
     *                             the data
     */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        requireOpen();
        return database.checkIntegrity(mode, maxErrors);
    }

    /**
     * Gives the space of deleted rows back, as {@link SimpleQueue#vacuum()} does: a SQLite file is rebuilt and has
     * shrunk when this returns, holding the write lock meanwhile; on PostgreSQL the tables are vacuumed.
     *
     * @throws IllegalStateException once this handle is closed
     * @since 0.1.0
     */
    public void vacuum() {
        requireOpen();
        database.store().vacuum(this::requireOpen);
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
            throw new IllegalStateException("database handle for " + (path != null ? path : location())
                    + " is closed");
        }
    }

    private Path requireFile(@Nullable Path value) {
        if (value == null) {
            throw new UnsupportedOperationException("the queues of " + location() + " are on a "
                    + engine() + " server, which has no queue directory or file; see location()");
        }
        return value;
    }

    @Override
    public String toString() {
        return "LocalQueueDatabase[" + (file != null ? file : location()) + "]";
    }

    /**
     * Configures a handle on a PostgreSQL database reached by URL, with a connection pool of its own that closing the
     * last handle and queue on it closes; every setter validates at once.
     *
     * @since 0.1.0
     */
    public static final class ServerBuilder {

        private final String url;
        private @Nullable String username;
        private @Nullable String password;
        private String schema = DEFAULT_SCHEMA;
        private int poolSize = ServerSettings.DEFAULT_POOL_SIZE;

        private ServerBuilder(String url) {
            this.url = url;
        }

        /**
         * Sets the user to connect as; default the URL's {@code user} parameter.
         *
         * @param username the user
         * @return this builder
         * @throws IllegalArgumentException when blank
         */
        public ServerBuilder username(String username) {
            if (username == null || username.isBlank()) {
                throw new InvalidArgumentException("username", "username must not be blank");
            }
            this.username = username;
            return this;
        }

        /**
         * Sets the password; default the URL's {@code password} parameter, or none.
         *
         * @param password the password, which no message or {@code toString} shows
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public ServerBuilder password(String password) {
            if (password == null) {
                throw new InvalidArgumentException("password", "password must not be null");
            }
            this.password = password;
            return this;
        }

        /**
         * Sets the schema that holds the tables, created when missing.
         *
         * @param schema a lower-case identifier; default {@value LocalQueueDatabase#DEFAULT_SCHEMA}
         * @return this builder
         * @throws IllegalArgumentException when not a letter or '_' followed by at most 62 letters, digits or '_'
         */
        public ServerBuilder schema(String schema) {
            this.schema = ServerSettings.requireValidSchema(schema);
            return this;
        }

        /**
         * Sets the most connections the pool opens: the wake-ups hold one, and each read or write borrows one while it runs.
         *
         * @param poolSize at least 3; default 10
         * @return this builder
         * @throws IllegalArgumentException when below 3
         */
        public ServerBuilder poolSize(int poolSize) {
            this.poolSize = ServerSettings.requireValidPoolSize(poolSize);
            return this;
        }

        /**
         * Tells, on a connection of its own and reading only, whether {@link #open()} would leave the schema as it is:
         * false when the schema is missing (a mistyped name, say) or lacks a table or column of this release.
         *
         * @return true when the schema holds this release's whole layout
         * @throws LocalQueueException when the server cannot be reached, the {@code localqueue-postgresql} module is
         *                             missing, or the schema holds other tables or a newer layout
         * @since 0.1.0
         */
        public boolean isCurrentLayout() {
            return Stores.isCurrentLayout(settings());
        }

        private ServerSettings settings() {
            return new ServerSettings(url, username, password, schema, poolSize);
        }

        /**
         * Opens the handle, creating the schema and tables as needed; equal settings in one JVM share one pool.
         *
         * @return a handle to close when done
         * @throws LocalQueueException when the server cannot be reached, the {@code localqueue-postgresql} module is
         *                             missing, or the schema holds other tables
         */
        public LocalQueueDatabase open() {
            return new LocalQueueDatabase(null, null, Database.acquire(settings(), Stores::open));
        }
    }
}
