package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import io.localqueue.internal.wakeup.ChangeWatch;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices other processes' commits to a SQLite file: {@code PRAGMA data_version} on a connection of its own changes
 * whenever another connection commits. While commits keep coming it reads it every millisecond and ignores
 * file-system events, which would wake it once for each commit of every process; once the file has been quiet for a
 * while it reads it after each file-system event on the database files (an event can precede the commit it
 * announces, so the fast reads resume after one) and slowly on a timer where events can be trusted to announce the
 * next commit, or at a moderate pace where they cannot (see {@link FileEvents}).
 */
final class DataVersionWatch implements ChangeWatch {

    private static final Logger log = LoggerFactory.getLogger(DataVersionWatch.class);

    /** Poll interval for a while after any activity. */
    static final long ACTIVE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long activity keeps the fast poll going. */
    static final long ACTIVE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Safety poll while the file system announces writes. */
    static final long EVENT_DRIVEN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Poll interval while nothing happens on platforms without file-system events. */
    static final long QUIET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final DataSource source;
    private final Path directory;
    private final String filePrefix;
    private @Nullable FileEvents events;
    private @Nullable Connection connection;
    private @Nullable PreparedStatement dataVersion;

    /**
     * Creates the watch of one file.
     *
     * @param source opens the watch's own connection to the file
     * @param directory the directory holding the file
     * @param fileName the database file's name; events on it and on its {@code -wal} count
     */
    public DataVersionWatch(DataSource source, Path directory, String fileName) {
        this.source = source;
        this.directory = directory;
        this.filePrefix = fileName;
    }

    @Override
    public void watch(BooleanSupplier wanted, Runnable changed) throws InterruptedException {
        FileEvents events = events();
        try {
            PreparedStatement statement = statement();
            // Waiters looked at their queues before this baseline was read: wake them to look once more.
            events.start();
            boolean listening = true;
            long last = read(statement);
            long activeUntil = System.nanoTime() + ACTIVE_NANOS;
            changed.run();
            while (wanted.getAsBoolean()) {
                if (System.nanoTime() - activeUntil < 0) {
                    if (listening) {
                        // Read every millisecond anyway: an event per commit of every process would only add work.
                        events.stop();
                        listening = false;
                    }
                    TimeUnit.NANOSECONDS.sleep(ACTIVE_POLL_NANOS);
                } else if (!listening) {
                    // Quiet again: listen, then read at once, since a commit before the start sent no event.
                    events.start();
                    listening = true;
                } else if (events.await(events.eventDriven() ? EVENT_DRIVEN_POLL_NANOS : QUIET_POLL_NANOS)) {
                    activeUntil = System.nanoTime() + ACTIVE_NANOS;
                }
                long current = read(statement);
                if (current != last) {
                    last = current;
                    activeUntil = System.nanoTime() + ACTIVE_NANOS;
                    changed.run();
                }
            }
        } catch (SQLException failure) {
            closeConnection();
            throw new LocalQueueException("reading data_version of " + directory.resolve(filePrefix) + " failed: "
                    + failure.getMessage(), failure);
        } finally {
            events.stop();
        }
    }

    @Override
    public void close() {
        closeConnection();
        FileEvents open = events;
        events = null;
        if (open != null) {
            open.close();
        }
    }

    private FileEvents events() {
        FileEvents open = events;
        if (open == null) {
            open = FileEvents.open(directory, filePrefix);
            events = open;
        }
        return open;
    }

    private PreparedStatement statement() throws SQLException {
        PreparedStatement statement = dataVersion;
        if (statement == null) {
            Connection opened = source.getConnection();
            connection = opened;
            statement = opened.prepareStatement("PRAGMA data_version");
            dataVersion = statement;
        }
        return statement;
    }

    private void closeConnection() {
        Connection open = connection;
        connection = null;
        dataVersion = null;
        if (open != null) {
            try {
                open.close();
            } catch (SQLException failure) {
                log.debug("Closing the watch connection of {} failed", directory, failure);
            }
        }
    }

    private static long read(PreparedStatement dataVersion) throws SQLException {
        try (ResultSet rows = dataVersion.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
