package io.localqueue.internal.store.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * Opens connections to one SQLite file with the settings every connection of this library has: foreign keys on,
 * {@code synchronous=NORMAL} until a writer sets its durability, no generated keys (the driver would run a query
 * after every insert and leave it open, see {@link Session}), and SQLite's own busy wait of
 * {@value #BUSY_TIMEOUT_MS} ms for reads and for opening (writers turn it off and retry on their own).
 */
final class SqliteConnector {

    /** SQLite's busy wait for reads and for opening; the Python library uses the same value. */
    public static final int BUSY_TIMEOUT_MS = 5000;

    private final Path file;
    private final SQLiteDataSource dataSource;

    /**
     * Creates the connector of a file.
     *
     * @param file the database file
     */
    public SqliteConnector(Path file) {
        this.file = file;
        this.dataSource = dataSource(file, BUSY_TIMEOUT_MS);
    }

    /**
     * Returns a data source with these settings, for a connection of one's own (such as the change watch).
     *
     * @return the data source
     */
    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * Opens a session on a new connection.
     *
     * @return the session; the caller closes it
     * @throws SQLException when the file cannot be opened
     */
    public Session open() throws SQLException {
        return new Session(dataSource.getConnection());
    }

    /**
     * Returns the file.
     *
     * @return the database file
     */
    public Path file() {
        return file;
    }

    /**
     * Opens a connection that cannot change {@code file}: read-only, and with {@code immutable} also without
     * locking or looking at its WAL or journal, so SQLite neither recovers nor checkpoints anything. Without
     * {@code immutable} it reads a WAL's committed pages too, and may rebuild only the {@code -shm} index.
     *
     * @param file the file
     * @param immutable whether to read the main file alone, as it lies on disk
     * @return the connection; the caller closes it
     * @throws SQLException when SQLite cannot open it
     */
    public static Connection openReadOnly(Path file, boolean immutable) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + file.toUri() + (immutable ? "?immutable=1" : "?mode=ro"));
        return source.getConnection();
    }

    /**
     * Returns a data source for any SQLite file with this library's settings.
     *
     * @param file the file
     * @param busyTimeoutMs SQLite's busy wait
     * @return the data source
     */
    public static SQLiteDataSource dataSource(Path file, int busyTimeoutMs) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(busyTimeoutMs);
        config.enforceForeignKeys(true);
        config.setGetGeneratedKeys(false);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + file.toUri());
        return source;
    }
}
