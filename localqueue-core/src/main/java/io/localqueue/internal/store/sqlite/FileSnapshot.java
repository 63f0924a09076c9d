package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Looks at a queue file without writing to it: whether opening it would add to its layout, and a consistent copy of it
 * taken through a read-only connection, which a reader can then open (and migrate) as it likes. SQLite creates the
 * {@code -wal} and {@code -shm} sidecars of a file in WAL mode for any reader, read-only ones included, and leaves
 * them empty; the file itself stays byte for byte as it was.
 */
final class FileSnapshot {

    /** Copies the whole database, committed pages of the WAL included, in one read transaction. */
    private static final String COPY = "VACUUM INTO ?";

    private FileSnapshot() {
    }

    /**
     * Tells whether the file already has this release's whole layout, reading only.
     *
     * @param file an existing queue file
     * @return false for a file the Python library or an earlier release wrote
     * @throws LocalQueueException when the file is missing, not a localqueue database, or of a newer layout
     */
    static boolean isCurrent(Path file) {
        requireFile(file);
        try (Connection connection = readOnly(file)) {
            SqliteSchema.requireLocalQueueDatabase(connection, file);
            return SqliteSchema.isCurrent(connection);
        } catch (SQLException failure) {
            throw SqliteErrors.wrap("reading the layout of " + file, failure);
        }
    }

    /**
     * Copies the file into {@code copy}, a path that does not exist yet, waiting on another process's lock no longer
     * than SQLite's busy wait.
     *
     * @param file an existing queue file
     * @param copy where the copy goes
     * @throws LocalQueueException when the file is missing, not a localqueue database, of a newer layout, or busy
     *                             past the wait
     */
    static void copy(Path file, Path copy) {
        requireFile(file);
        try (Connection connection = readOnly(file)) {
            SqliteSchema.requireLocalQueueDatabase(connection, file);
            try (PreparedStatement statement = connection.prepareStatement(COPY)) {
                statement.setString(1, copy.toString());
                statement.execute();
            }
        } catch (SQLException failure) {
            throw SqliteErrors.wrap("copying " + file, failure);
        }
    }

    /**
     * A connection that cannot change the file. To a file this user may not write while no process has it open (no WAL
     * beside it), it reads the file alone: an ordinary read-only connection would create the {@code -wal} and
     * {@code -shm} sidecars as this user, which the file's owner might then be unable to open.
     */
    private static Connection readOnly(Path file) throws SQLException {
        Path directory = file.toAbsolutePath().getParent();
        boolean writable = Files.isWritable(file) && directory != null && Files.isWritable(directory);
        boolean idle = !Files.exists(Path.of(file + "-wal")) && !Files.exists(Path.of(file + "-shm"));
        return SqliteConnector.openReadOnly(file, idle && !writable);
    }

    /**
     * Deletes a scratch directory and what it holds, quietly: a copy that outlives its reader wastes space, nothing
     * else.
     *
     * @param scratch the directory
     */
    static void delete(Path scratch) {
        try (Stream<Path> paths = Files.walk(scratch)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // a leftover scratch copy is harmless
        }
    }

    private static void requireFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new LocalQueueException("no queue file at " + file);
        }
        FileInspection.requireLocalQueueFile(file);
    }
}
