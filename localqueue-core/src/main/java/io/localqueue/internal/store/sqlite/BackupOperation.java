package io.localqueue.internal.store.sqlite;

import io.localqueue.BackupResult;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.InvalidArgumentException;
import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An online backup into a new directory: one consistent read snapshot copied with {@code VACUUM INTO} (so other
 * threads and processes keep reading and writing, and a batch is either wholly in the copy or not at all), staged
 * under a temporary name, verified with a full integrity check, then renamed into place. Any failure removes the
 * staged files and the directory this call created.
 */
final class BackupOperation {

    private static final Logger log = LoggerFactory.getLogger(BackupOperation.class);

    private static final int VERIFY_MAX_ERRORS = 100;

    private BackupOperation() {
    }

    static BackupResult run(Path queueDirectory, ReaderPool readers, Path destination) {
        return run(queueDirectory, destination, staged -> {
            try {
                readers.withSession(session -> copy(session.connection(), staged));
            } catch (SQLException failure) {
                throw SqliteErrors.wrap("reading " + queueDirectory.resolve(SqliteQueueStore.FILE_NAME), failure);
            }
        });
    }

    /**
     * Backs a queue directory's file up without opening it as a queue: the copy is taken through a read-only
     * connection, so the file keeps its layout (the Python library's, say) and so does the backup.
     */
    static BackupResult runAsItIs(Path queueDirectory, Path destination) {
        return run(queueDirectory, destination,
                staged -> FileSnapshot.copy(queueDirectory.resolve(SqliteQueueStore.FILE_NAME), staged));
    }

    private static BackupResult run(Path queueDirectory, Path destination, Consumer<Path> copier) {
        long start = System.nanoTime();
        Path target = validate(queueDirectory, destination);
        try (BackupDestination claimed = BackupDestination.claim(target, destination)) {
            Path staged = claimed.staged();
            Path file = target.resolve(SqliteQueueStore.FILE_NAME);
            copier.accept(staged);
            Verification verification = verify(staged);
            if (!verification.check.ok()) {
                throw new LocalQueueException("backup integrity check failed: "
                        + String.join("; ", verification.check.messages()));
            }
            deleteSidecars(staged);
            Failpoints.reach("backup", Failpoints.Stage.BEFORE_COMMIT);
            Files.move(staged, file, StandardCopyOption.ATOMIC_MOVE);
            Failpoints.reach("backup", Failpoints.Stage.AFTER_COMMIT);
            long size = Files.size(file);
            claimed.complete();
            return new BackupResult(BackupResult.SCHEMA_VERSION, destination,
                    destination.resolve(SqliteQueueStore.FILE_NAME), Duration.ofNanos(System.nanoTime() - start),
                    verification.pageCount, verification.pageCount, size, true, IntegrityCheckMode.FULL,
                    verification.check.messages());
        } catch (IOException | SQLException failure) {
            throw new LocalQueueException("backup to " + destination + " failed: " + failure, failure);
        }
    }

    private static Path validate(Path queueDirectory, Path destination) {
        if (destination == null) {
            throw new InvalidArgumentException("destinationDirectory", "destinationDirectory must not be null");
        }
        Path absolute = destination.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null || absolute.getFileName() == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("destinationDirectory " + destination
                    + " must be a new directory inside an existing one");
        }
        Path resolved;
        try {
            resolved = parent.toRealPath().resolve(absolute.getFileName());
        } catch (IOException failure) {
            throw new IllegalArgumentException("destinationDirectory " + destination + " cannot be resolved: "
                    + failure, failure);
        }
        if (resolved.startsWith(queueDirectory)) {
            throw new IllegalArgumentException("destinationDirectory " + destination
                    + " must lie outside the queue directory " + queueDirectory);
        }
        return resolved;
    }

    private static Void copy(Connection connection, Path staged) throws SQLException {
        try (PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
            vacuum.setString(1, staged.toString());
            vacuum.executeUpdate();
        }
        return null;
    }

    private static Verification verify(Path staged) throws IOException {
        try (Connection connection = SqliteConnector.dataSource(staged, SqliteConnector.BUSY_TIMEOUT_MS)
                .getConnection()) {
            try (Statement statement = connection.createStatement()) {
                // A backup is one self-contained file: no WAL sidecars to carry around.
                statement.executeQuery("PRAGMA journal_mode = DELETE").close();
            }
            IntegrityCheckResult check = IntegrityStatements.check(connection, IntegrityCheckMode.FULL,
                    VERIFY_MAX_ERRORS);
            long pageCount;
            try (Statement statement = connection.createStatement();
                 var rows = statement.executeQuery("PRAGMA page_count")) {
                rows.next();
                pageCount = rows.getLong(1);
            }
            return new Verification(check, pageCount);
        } catch (SQLException failure) {
            throw new LocalQueueException("backup verification failed: " + failure.getMessage(), failure);
        }
    }

    private static void deleteSidecars(Path file) throws IOException {
        for (String suffix : List.of("-journal", "-wal", "-shm")) {
            Files.deleteIfExists(Path.of(file + suffix));
        }
    }

    private record Verification(IntegrityCheckResult check, long pageCount) {
    }
}
