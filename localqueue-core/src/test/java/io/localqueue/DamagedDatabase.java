package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a queue directory whose database is damaged but still opens: a populated, checkpointed and closed database
 * is copied, and in the copy the cells of the root page of one index b-tree are overwritten. The schema page stays
 * intact, so opening the copy as a queue works and only reading that index fails.
 */
final class DamagedDatabase {

    /** The index whose root page is damaged. */
    static final String DAMAGED_INDEX = "idx_messages_queue_status";

    private static final int ROWS = 2000;
    private static final int GARBAGE_BYTES = 64;

    private DamagedDatabase() {
    }

    /**
     * Creates {@code workDir/original} (healthy, closed) and {@code workDir/damaged} (its damaged copy).
     *
     * @return the queue directory of the damaged copy
     */
    static Path create(Path workDir) throws IOException, SQLException {
        Path original = workDir.resolve("original");
        try (SimpleQueue<Object> queue = SimpleQueue.builder(original).build()) {
            List<EnqueueItem<Object>> items = new ArrayList<>(ROWS);
            for (int i = 0; i < ROWS; i++) {
                items.add(EnqueueItem.of(String.format("%05d", i) + "x".repeat(195), "job-" + i));
            }
            queue.putMany(items);
        }
        Path originalFile = original.resolve(LocalQueueDatabase.FILE_NAME);
        RawSqlite.execute(originalFile, "PRAGMA wal_checkpoint(TRUNCATE)");
        Path copy = Files.createDirectory(workDir.resolve("damaged"));
        Path copyFile = copy.resolve(LocalQueueDatabase.FILE_NAME);
        Files.copy(originalFile, copyFile);

        long pageSize = ((Number) RawSqlite.value(copyFile, "PRAGMA page_size")).longValue();
        long rootPage = ((Number) RawSqlite.value(copyFile, "SELECT rootpage FROM sqlite_master WHERE name = ?",
                DAMAGED_INDEX)).longValue();
        assertThat(rootPage).as("root page of %s", DAMAGED_INDEX).isGreaterThan(1);
        overwriteCells(copyFile, (rootPage - 1) * pageSize, pageSize);
        return copy;
    }

    /**
     * Overwrites bytes at the start of a b-tree page's cell content area (its offset is in bytes 5-6 of the page
     * header), where the first cell's child pointer and key live.
     */
    private static void overwriteCells(Path file, long pageStart, long pageSize) throws IOException {
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(pageStart + 5);
            int contentStart = raw.readUnsignedShort();
            int offset = contentStart == 0 ? 65536 : contentStart;
            assertThat(offset).as("cell content offset").isBetween(8, (int) pageSize - GARBAGE_BYTES);
            byte[] garbage = new byte[GARBAGE_BYTES];
            Arrays.fill(garbage, (byte) 0xA5);
            raw.seek(pageStart + offset);
            raw.write(garbage);
        }
    }
}
