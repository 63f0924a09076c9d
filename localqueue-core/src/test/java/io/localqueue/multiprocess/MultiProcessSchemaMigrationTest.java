package io.localqueue.multiprocess;

import io.localqueue.testsupport.ChildProcess;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.HELD;
import static io.localqueue.multiprocess.QueueChild.HOLD_WRITE_LOCK;
import static io.localqueue.multiprocess.QueueChild.LOCKED;
import static io.localqueue.multiprocess.QueueChild.OPEN;
import static io.localqueue.multiprocess.QueueChild.OPENED;
import static io.localqueue.multiprocess.QueueChild.READY;
import static io.localqueue.multiprocess.QueueChild.RELEASE;
import static io.localqueue.multiprocess.QueueChild.RELEASED;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.IntegrityCheckResult;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.storage.LegacyDatabase;
import io.localqueue.storage.RawSqlite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Processes opening a file of the Python 1.0 layout at the same moment bring it up to date exactly once: another
 * process holds the write lock while they start opening, so each finds the schema out of date and then waits for the
 * lock; once it is released, the first migrates and the others must notice that inside their own transaction.
 */
class MultiProcessSchemaMigrationTest extends MultiProcessTestBase {

    private static final int OPENERS = 4;

    /** Long enough for every opener to find the schema out of date and queue up for the write lock. */
    private static final long HOLD_MILLIS = 1500;

    @Test
    void processesOpeningAnOldFileTogetherMigrateItOnceAndKeepEveryRow() throws Exception {
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Path alone = Files.createDirectories(dir.resolve("alone"));
        LegacyDatabase legacy = LegacyDatabase.create(shared);
        LegacyDatabase reference = LegacyDatabase.create(alone);
        SimpleQueue.builder(alone).build().close();
        Map<String, String> migratedSchema = RawSqlite.schema(reference.file());
        Object migratedSchemaVersion = RawSqlite.pragma(reference.file(), "schema_version");
        Map<String, List<Map<String, Object>>> migratedRows = RawSqlite.tables(reference.file());

        ChildProcess writer = children.start("writer", HOLD_WRITE_LOCK, legacy.file(), HOLD_MILLIS);
        List<ChildProcess> openers = children.startReady(OPENERS, OPEN, shared);
        writer.expect(READY);
        writer.send(GO);
        writer.expect(LOCKED);
        ChildProcesses.sendAll(openers, GO);
        writer.expect(HELD);
        writer.send(RELEASE);
        writer.expect(RELEASED);
        writer.awaitSuccess();
        for (ChildProcess opener : openers) {
            assertThat(opener.expect(OPENED)).as("stats seen by %s", opener).containsExactly("3", "1", "1", "2");
            opener.awaitSuccess();
        }

        assertThat(RawSqlite.schema(legacy.file())).as("schema").isEqualTo(migratedSchema);
        assertThat(RawSqlite.pragma(legacy.file(), "schema_version")).as("schema changes, counted by SQLite")
                .isEqualTo(migratedSchemaVersion);
        assertThat(RawSqlite.query(legacy.file(), "SELECT name FROM pragma_table_info('messages')"))
                .extracting(row -> row.get("name")).doesNotHaveDuplicates().hasSize(19);
        assertThat(RawSqlite.tables(legacy.file())).as("rows, as a lone open migrates them")
                .isEqualTo(migratedRows);
        try (SimpleQueue<Object> queue = SimpleQueue.builder(shared).build()) {
            IntegrityCheckResult integrity = queue.checkIntegrity();
            assertThat(integrity.ok()).as("integrity %s", integrity.messages()).isTrue();
            assertThat(queue.stats()).isEqualTo(new QueueStats(3, 1, 1, 2));
        }
    }
}
