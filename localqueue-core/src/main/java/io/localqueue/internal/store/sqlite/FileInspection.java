package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Looks at an existing file before any connection that could change it opens it. A normal open of another
 * application's database would already write to it: SQLite recovers a hot WAL (checkpointing it into the file and
 * deleting it on close) and rolls back a hot journal. So the file is first read through connections that cannot
 * write it, and refused while it is still byte for byte as it was.
 */
final class FileInspection {

    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_BYTES = 100;

    private FileInspection() {
    }

    /**
     * Returns quietly when {@code file} is absent, empty (SQLite takes a zero-length file as an empty database, so
     * it becomes a new queue) or a localqueue database; otherwise throws, having changed nothing.
     *
     * @param file the database file
     * @throws LocalQueueException naming the file and the problem
     */
    static void requireLocalQueueFile(Path file) {
        long size;
        try {
            if (!Files.exists(file) || (size = Files.size(file)) == 0) {
                return;
            }
            requireSqliteHeader(file, size);
        } catch (IOException failure) {
            throw new LocalQueueException("cannot read " + file + ": " + failure, failure);
        }
        // With a WAL beside it, the file alone may lack committed pages; a read-only connection reads them without
        // checkpointing. Without one, the file alone is the database, read without locks or recovery.
        // The file alone, read without locks or recovery, settles most cases at once: a foreign schema is refused,
        // a localqueue schema accepted. A file that shows no schema or cannot be read alone may have its committed
        // pages in a WAL beside it (which a read-only connection would read only after rebuilding the -shm index),
        // so a copy of both is read instead. Should another process be writing it, a locking read has the last word.
        Path wal = Path.of(file + "-wal");
        Boolean holdsTables = readAlone(file);
        if (Boolean.TRUE.equals(holdsTables)) {
            return;
        }
        try {
            if (nonEmpty(wal)) {
                inspectCopy(file, wal);
            } else if (holdsTables == null) {
                try (Connection connection = SqliteConnector.openReadOnly(file, false)) {
                    SqliteSchema.requireLocalQueueDatabase(connection, file);
                }
            }
        } catch (SQLException | IOException failure) {
            String journal = nonEmpty(Path.of(file + "-journal"))
                    ? " (a rollback journal lies beside it: another program's unfinished transaction)" : "";
            throw new LocalQueueException(file + " is not a usable localqueue database" + journal + ": "
                    + failure.getMessage() + "; it was left untouched", failure);
        }
    }

    /**
     * Reads the schema of the file alone: true when it holds a localqueue schema, false when it holds no tables,
     * null when it cannot be read alone; throws when it holds another application's tables.
     */
    private static @Nullable Boolean readAlone(Path file) {
        try (Connection connection = SqliteConnector.openReadOnly(file, true)) {
            SqliteSchema.requireLocalQueueDatabase(connection, file);
            return !SqliteSchema.tables(connection).isEmpty();
        } catch (SQLException unreadable) {
            return null;
        } catch (LocalQueueException refused) {
            if (refused.getCause() instanceof SQLException) {
                return null;
            }
            throw refused;
        }
    }

    /** Reads the schema from a copy of the file and its WAL, which SQLite may recover as it likes. */
    private static void inspectCopy(Path file, Path wal) throws IOException, SQLException {
        Path scratch = Files.createTempDirectory("localqueue-inspect");
        try {
            Path copy = scratch.resolve(file.getFileName());
            Files.copy(file, copy);
            Files.copy(wal, Path.of(copy + "-wal"));
            try (Connection connection = SqliteConnector.openReadOnly(copy, false)) {
                SqliteSchema.requireLocalQueueDatabase(connection, file);
            }
        } finally {
            try (var leftovers = Files.list(scratch)) {
                for (Path leftover : (Iterable<Path>) leftovers::iterator) {
                    Files.deleteIfExists(leftover);
                }
            }
            Files.delete(scratch);
        }
    }

    private static void requireSqliteHeader(Path file, long size) throws IOException {
        byte[] header = new byte[HEADER_BYTES];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(header, 0, HEADER_BYTES);
        }
        if (size < HEADER_BYTES || read < HEADER_BYTES
                || !Arrays.equals(header, 0, SQLITE_HEADER.length, SQLITE_HEADER, 0, SQLITE_HEADER.length)) {
            throw new LocalQueueException(file + " is not an SQLite database (it does not start with SQLite's "
                    + "header); it was left untouched");
        }
    }

    private static boolean nonEmpty(Path sidecar) {
        try {
            return Files.isRegularFile(sidecar) && Files.size(sidecar) > 0;
        } catch (IOException unreadable) {
            return true;
        }
    }
}
