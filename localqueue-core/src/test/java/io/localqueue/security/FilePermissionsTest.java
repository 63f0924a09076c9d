package io.localqueue.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files of a queue can be kept from other users: restricting the directory and {@code localqueue.db} is enough,
 * since SQLite gives the {@code -wal} and {@code -shm} files it creates the database file's permissions.
 */
class FilePermissionsTest {

    @TempDir
    Path dir;

    @Test
    void walAndShmTakeThePermissionsOfTheDatabaseFile() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        Path queueDir = Files.createDirectory(dir.resolve("queue"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (SimpleQueue<String> queue = SimpleQueue.builder(queueDir, String.class).build()) {
            queue.put("created");
        }
        Path file = queueDir.resolve(LocalQueueDatabase.FILE_NAME);
        Files.setPosixFilePermissions(file, ownerOnly);

        try (SimpleQueue<String> queue = SimpleQueue.builder(queueDir, String.class).build()) {
            queue.put("written through a new WAL");
            for (String sidecar : new String[] {"-wal", "-shm"}) {
                assertThat(Files.getPosixFilePermissions(Path.of(file + sidecar))).as(sidecar).isEqualTo(ownerOnly);
            }
        }
        assertThat(Files.getPosixFilePermissions(queueDir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
    }
}
