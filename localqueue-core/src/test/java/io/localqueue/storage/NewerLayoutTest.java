package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A file whose {@code user_version} names a newer layout is refused and never touched. */
class NewerLayoutTest {

    private static final int NEWER_LAYOUT = 7;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "journal_mode {0}")
    @ValueSource(strings = {"wal", "delete"})
    void queueRefusesAFileOfANewerLayoutAndLeavesItByteForByteUnchanged(String journalMode) throws Exception {
        Path file = newerLayoutFile(journalMode);
        byte[] bytes = Files.readAllBytes(file);
        List<Path> listing = listing();

        assertThatThrownBy(() -> SimpleQueue.builder(dir).build()).isExactlyInstanceOf(LocalQueueException.class)
                .hasMessageContaining("written by a newer, incompatible").hasMessageContaining("7");

        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
        assertThat(listing()).as("files in the queue directory").isEqualTo(listing);
    }

    @Test
    void sharedDatabaseHandleRefusesAFileOfANewerLayoutEveryTime() throws Exception {
        Path file = newerLayoutFile("wal");
        byte[] bytes = Files.readAllBytes(file);

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> LocalQueueDatabase.open(dir)).isExactlyInstanceOf(LocalQueueException.class)
                    .hasMessageContaining("written by a newer, incompatible");
        }

        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
        assertThat(RawSqlite.pragma(file, "user_version")).isEqualTo((long) NEWER_LAYOUT);
    }

    /** A complete 1.4 file with one row, stamped with a newer layout version and closed cleanly. */
    private Path newerLayoutFile(String journalMode) throws SQLException {
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (Connection connection = PythonLayout.V1_4.create(file)) {
            PythonLayout.V1_4.insert(connection, StoredRow.put("default", "{\"n\": 1}", PythonDatabase.NOW).build());
            RawSqlite.execute(connection, "PRAGMA user_version = " + NEWER_LAYOUT);
            RawSqlite.execute(connection, "PRAGMA journal_mode = " + journalMode);
        }
        return file;
    }

    private List<Path> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }
}
