package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another application's SQLite file, left as that application's crash left it (a hot WAL, a hot rollback journal),
 * is refused without a byte of it or its sidecars changing: a normal open would have checkpointed or rolled back
 * the other application's transaction and deleted its journal.
 */
class ForeignFileTest {

    @TempDir
    Path work;

    @Test
    void aForeignDatabaseWithAHotWalIsRefusedAndLeftByteIdentical() throws Exception {
        Path queueDir = crashedCopy(false, "PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0",
                "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", "PRAGMA wal_checkpoint(TRUNCATE)",
                "INSERT INTO users (name) VALUES ('ada'), ('grace')");

        assertRefusedAndByteIdentical(queueDir, "users");
    }

    @Test
    void aForeignDatabaseWhoseTablesAreOnlyInItsWalIsRefusedAndLeftByteIdentical() throws Exception {
        Path queueDir = crashedCopy(false, "PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0",
                "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO users (name) VALUES ('ada')");

        assertRefusedAndByteIdentical(queueDir, "users");
    }

    @Test
    void aForeignDatabaseWithAHotRollbackJournalIsRefusedAndLeftByteIdentical() throws Exception {
        Path queueDir = crashedCopy(true, "PRAGMA journal_mode = DELETE", "PRAGMA cache_size = 2",
                "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) "
                        + "INSERT INTO users (name) SELECT printf('%0500d', i) FROM n");

        assertRefusedAndByteIdentical(queueDir, "");
    }

    @Test
    void aZeroLengthFileIsTakenAsANewQueue() throws Exception {
        Path queueDir = Files.createDirectory(work.resolve("queue"));
        Files.createFile(queueDir.resolve(LocalQueueDatabase.FILE_NAME));

        try (SimpleQueue<String> queue = SimpleQueue.builder(queueDir, String.class).build()) {
            queue.put("first");
            assertThat(queue.getNowait().data()).isEqualTo("first");
        }
    }

    @Test
    void aLocalQueueFileLeftWithAHotWalOpensWithEveryCommittedJob() throws Exception {
        Path original = work.resolve("original");
        Path copy = Files.createDirectory(work.resolve("copy"));
        try (SimpleQueue<String> queue = SimpleQueue.builder(original, String.class).build()) {
            queue.put("a");
            queue.put("b");
            // Copied while open, as a crash would leave it: the jobs are only in the WAL.
            for (String name : sidecarNames()) {
                Path file = original.resolve(name);
                if (Files.exists(file)) {
                    Files.copy(file, copy.resolve(name));
                }
            }
        }

        try (SimpleQueue<String> queue = SimpleQueue.builder(copy, String.class).build()) {
            assertThat(queue.stats().ready()).isEqualTo(2);
        }
    }

    /**
     * Runs {@code statements} on a database outside the queue directory, and copies its files into a new queue
     * directory while the connection is still open (and, with {@code inTransaction}, while the last statement's
     * transaction is still open), which is what a crash leaves behind.
     */
    private Path crashedCopy(boolean inTransaction, String... statements) throws Exception {
        Path source = Files.createDirectory(work.resolve("other-application"));
        Path queueDir = Files.createDirectory(work.resolve("queue"));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + source.resolve(LocalQueueDatabase.FILE_NAME));
             Statement statement = connection.createStatement()) {
            for (int i = 0; i < statements.length; i++) {
                if (inTransaction && i == statements.length - 1) {
                    statement.execute("BEGIN");
                }
                statement.execute(statements[i]);
            }
            for (String name : sidecarNames()) {
                Path file = source.resolve(name);
                if (Files.exists(file)) {
                    Files.copy(file, queueDir.resolve(name));
                }
            }
            if (inTransaction) {
                assertThat(queueDir.resolve(LocalQueueDatabase.FILE_NAME + "-journal")).as("a hot journal").exists();
                statement.execute("ROLLBACK");
            } else {
                assertThat(Files.size(queueDir.resolve(LocalQueueDatabase.FILE_NAME + "-wal"))).as("a hot WAL")
                        .isPositive();
            }
        }
        return queueDir;
    }

    private static void assertRefusedAndByteIdentical(Path queueDir, String named) throws IOException {
        Map<String, byte[]> before = contents(queueDir);

        assertThatThrownBy(() -> SimpleQueue.builder(queueDir).build())
                .isInstanceOf(LocalQueueException.class)
                .hasMessageContaining(LocalQueueDatabase.FILE_NAME)
                .hasMessageContaining(named);
        assertThatThrownBy(() -> LocalQueueDatabase.open(queueDir)).isInstanceOf(LocalQueueException.class);

        Map<String, byte[]> after = contents(queueDir);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (String name : before.keySet()) {
            assertThat(after.get(name)).as(name).isEqualTo(before.get(name));
        }
    }

    private static Map<String, byte[]> contents(Path dir) throws IOException {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        for (String name : sidecarNames()) {
            Path file = dir.resolve(name);
            if (Files.exists(file)) {
                contents.put(name, Files.readAllBytes(file));
            }
        }
        return contents;
    }

    private static String[] sidecarNames() {
        String db = LocalQueueDatabase.FILE_NAME;
        return new String[] {db, db + "-wal", db + "-shm", db + "-journal"};
    }
}
