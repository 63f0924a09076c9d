package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.BackupResult;
import io.localqueue.FailedMessage;
import io.localqueue.JobState;
import io.localqueue.JsonSerializer;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueStats;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import io.localqueue.TestDatabases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A look at a queue file through {@link LocalQueueDatabase#openSnapshot}: the file a Python process or this library
 * wrote is read through a copy and never written, its layout told apart by {@link LocalQueueDatabase#isCurrentLayout}.
 */
@Tag(TestDatabases.FILE_ONLY)
class SnapshotTest {

    @TempDir
    Path dir;

    @Test
    void pythonFileIsReadThroughACopyAndStaysByteForByteAsItWas() throws Exception {
        PythonDatabase python = PythonDatabase.create(dir);
        byte[] bytes = Files.readAllBytes(python.file());

        assertThat(LocalQueueDatabase.isCurrentLayout(dir)).isFalse();
        List<Path> scratchesBefore = scratches();
        Path scratch;
        try (LocalQueueDatabase snapshot = LocalQueueDatabase.openSnapshot(dir);
             SimpleQueue<byte[]> queue = SimpleQueue.builder(snapshot, Serializer.bytes()).name(PythonDatabase.QUEUE)
                     .build()) {
            assertThat(snapshot.queueNames()).containsExactly(PythonDatabase.BUS, PythonDatabase.QUEUE,
                    PythonDatabase.REPORTS);
            assertThat(queue.stats()).isEqualTo(new QueueStats(5, 2, 1, 11));
            assertThat(queue.listJobs(JobState.FAILED, null, 100)).hasSize(11);
            assertThat(queue.findJob(python.id(PythonDatabase.WITH_JOB_ID))).hasValueSatisfying(job ->
                    assertThat(job.jobId()).isEqualTo(PythonDatabase.JOB_ID));
            assertThat(snapshot.location()).startsWith(python.file().toRealPath().toString())
                    .endsWith("(a copy taken for reading)");
            List<Path> scratches = scratches();
            scratches.removeAll(scratchesBefore);
            assertThat(scratches).hasSize(1);
            scratch = scratches.get(0);
        }

        assertThat(scratch).as("the copy, deleted on close").doesNotExist();
        assertThat(Files.readAllBytes(python.file())).isEqualTo(bytes);
        assertThat(RawSqlite.schema(python.file()).keySet()).doesNotContainAnyElementsOf(
                RawSqlite.ADDED_SCHEMA_OBJECTS);
        assertThat(LocalQueueDatabase.isCurrentLayout(dir)).isFalse();
    }

    @Test
    void aPythonFileIsBackedUpAsItIsAndKeepsItsLayoutInTheBackup() throws Exception {
        PythonDatabase python = PythonDatabase.create(dir);
        byte[] bytes = Files.readAllBytes(python.file());
        Path destination = dir.resolveSibling(dir.getFileName() + "-backup");

        BackupResult result = LocalQueueDatabase.backupFile(dir, destination);

        assertThat(result.verified()).isTrue();
        Path copy = destination.resolve(LocalQueueDatabase.FILE_NAME);
        assertThat(result.databasePath()).isEqualTo(copy);
        assertThat(RawSqlite.schema(copy)).isEqualTo(RawSqlite.schema(python.file()));
        assertThat(RawSqlite.tables(copy)).isEqualTo(RawSqlite.tables(python.file()));
        assertThat(Files.readAllBytes(python.file())).isEqualTo(bytes);
        assertThat(LocalQueueDatabase.isCurrentLayout(destination)).isFalse();
        assertThatThrownBy(() -> LocalQueueDatabase.backupFile(dir, destination))
                .isInstanceOf(LocalQueueException.class).hasMessageContaining(destination.toString());
    }

    @Test
    void writesThroughACopyStayInTheCopy() throws Exception {
        try (SimpleQueue<String> queue = SimpleQueue.builder(dir, JsonSerializer.of(String.class)).name("emails").build()) {
            queue.put("a");
            queue.put("b");
            queue.fail(queue.getNowait(), "smtp down");
        }
        assertThat(LocalQueueDatabase.isCurrentLayout(dir)).isTrue();

        try (LocalQueueDatabase snapshot = LocalQueueDatabase.openSnapshot(dir)) {
            SimpleQueue<String> copy = SimpleQueue.builder(snapshot, JsonSerializer.of(String.class)).name("emails").build();
            FailedMessage<String> dead = copy.listFailed(10, 0).get(0);
            copy.retryFailed(dead.id());
            assertThat(copy.stats().ready()).isEqualTo(2);
        }

        try (SimpleQueue<String> queue = SimpleQueue.builder(dir, JsonSerializer.of(String.class)).name("emails").build()) {
            assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 1));
        }
    }

    @Test
    void copyIsTakenWhileAnotherConnectionHoldsTheWriteLockAndHoldsOnlyWhatWasCommitted() throws Exception {
        try (SimpleQueue<String> queue = SimpleQueue.builder(dir, JsonSerializer.of(String.class)).name("emails").build()) {
            queue.put("committed");
        }
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (Connection writer = RawSqlite.connect(file)) {
            RawSqlite.execute(writer, "BEGIN IMMEDIATE");
            RawSqlite.execute(writer, "UPDATE messages SET status = 3");

            try (LocalQueueDatabase snapshot = LocalQueueDatabase.openSnapshot(dir)) {
                SimpleQueue<String> copy = SimpleQueue.builder(snapshot, JsonSerializer.of(String.class)).name("emails").build();
                assertThat(copy.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
            }
            RawSqlite.execute(writer, "ROLLBACK");
        }
    }

    @Test
    void missingDirectoryOrFileIsNamedAndNothingIsCreated() throws IOException {
        Path missing = dir.resolve("nowhere");
        assertThatThrownBy(() -> LocalQueueDatabase.openSnapshot(missing)).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("no queue directory at " + missing);
        assertThatThrownBy(() -> LocalQueueDatabase.isCurrentLayout(dir)).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("localqueue.db is missing");
        assertThat(missing).doesNotExist();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void newerLayoutIsRefusedByBothAndLeftAsItWas() throws Exception {
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (Connection connection = PythonLayout.V1_4.create(file)) {
            RawSqlite.execute(connection, "PRAGMA user_version = 9");
        }
        byte[] bytes = Files.readAllBytes(file);

        for (Runnable look : List.<Runnable>of(() -> LocalQueueDatabase.isCurrentLayout(dir),
                () -> LocalQueueDatabase.openSnapshot(dir).close())) {
            assertThatThrownBy(look::run).isInstanceOf(LocalQueueException.class)
                    .hasMessageContaining("written by a newer, incompatible localqueue (layout version 9");
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void fileOfAnotherApplicationIsRefused() throws SQLException {
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (Connection connection = RawSqlite.connect(file)) {
            RawSqlite.execute(connection, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
        }

        assertThatThrownBy(() -> LocalQueueDatabase.openSnapshot(dir)).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("is not a localqueue database");
    }

    private static List<Path> scratches() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(path -> path.getFileName().toString().startsWith("localqueue-snapshot"))
                    .collect(Collectors.toCollection(ArrayList::new));
        }
    }
}
