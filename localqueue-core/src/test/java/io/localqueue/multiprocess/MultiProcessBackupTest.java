package io.localqueue.multiprocess;

import io.localqueue.testsupport.ChildProcess;
import static io.localqueue.multiprocess.BackupChild.BACKED_UP;
import static io.localqueue.multiprocess.BackupChild.BACKUP;
import static io.localqueue.multiprocess.BackupChild.BATCH;
import static io.localqueue.multiprocess.BackupChild.CLAIM_ACK_PUT;
import static io.localqueue.multiprocess.BackupChild.CONSUME_UNTIL_STOPPED;
import static io.localqueue.multiprocess.BackupChild.EXISTS;
import static io.localqueue.multiprocess.BackupChild.PRODUCE_BATCHES;
import static io.localqueue.multiprocess.BackupChild.STATS;
import static io.localqueue.multiprocess.BackupChild.STOP;
import static io.localqueue.multiprocess.QueueChild.ACKED;
import static io.localqueue.multiprocess.QueueChild.CLAIMED;
import static io.localqueue.multiprocess.QueueChild.DONE;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.PUT;
import static io.localqueue.multiprocess.QueueChild.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.BackupResult;
import io.localqueue.EnqueueItem;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.SimpleQueue;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Online backups next to other JVMs that use the same file, and backups opened by a fresh JVM. */
class MultiProcessBackupTest extends MultiProcessTestBase {

    private static final int BATCH_SIZE = 50;
    private static final int MAX_BACKUPS = 100;
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void backupOpensAsAWorkingQueueInAFreshJvm() throws Exception {
        Path source = dir.resolve("source");
        Path backup = dir.resolve("backup");
        long firstWaiting;
        long lastId;
        try (SimpleQueue<Object> queue = SimpleQueue.builder(source).build()) {
            queue.put("already-done");
            queue.ack(queue.getNowait());
            firstWaiting = queue.put("first-waiting");
            lastId = queue.put("second-waiting");
            queue.backup(backup);
        }
        Directories.deleteRecursively(source); // the copy must stand on its own

        ChildProcess restorer = children.start("restorer", BackupChild.class, CLAIM_ACK_PUT, backup);
        restorer.expect(READY);
        restorer.send(GO);

        assertThat(restorer.expect(STATS)).containsExactly("2", "0", "1", "0");
        assertThat(restorer.expect(CLAIMED)).containsExactly(String.valueOf(firstWaiting), "0", "first-waiting");
        assertThat(restorer.expect(ACKED)).containsExactly(String.valueOf(firstWaiting));
        assertThat(Long.parseLong(restorer.expect(PUT).get(0))).isGreaterThan(lastId);
        assertThat(restorer.expect(STATS)).containsExactly("2", "0", "2", "0");
        restorer.awaitSuccess();
        assertThat(statusOf(backup.resolve(LocalQueueDatabase.FILE_NAME), firstWaiting)).isEqualTo(2);
    }

    @Test
    void backupsTakenWhileOtherProcessesProduceAndConsumeHoldOnlyWholeBatches() throws Exception {
        Path source = dir.resolve("source");
        try (SimpleQueue<Object> queue = SimpleQueue.builder(source).build()) {
            ChildProcess producer = children.start("producer", BackupChild.class, PRODUCE_BATCHES, source, BATCH_SIZE);
            ChildProcess consumer = children.start("consumer", BackupChild.class, CONSUME_UNTIL_STOPPED, source);
            producer.expect(READY);
            consumer.expect(READY);
            AtomicInteger batchesCommitted = new AtomicInteger();
            AtomicInteger jobsAcked = new AtomicInteger();
            producer.send(GO);
            consumer.send(GO);
            Future<Integer> producerDone = follow(producer, BATCH,
                    words -> batchesCommitted.set(Integer.parseInt(words.get(0)) + 1));
            Future<Integer> consumerDone = follow(consumer, ACKED, words -> jobsAcked.incrementAndGet());
            await().atMost(BOUND).until(() -> stillRunning(producerDone, consumerDone)
                    && batchesCommitted.get() >= 3 && jobsAcked.get() >= 1);

            // Back up, back to back, until each child was seen making progress while a backup ran.
            boolean producerWorkedDuringABackup = false;
            boolean consumerWorkedDuringABackup = false;
            int backups = 0;
            while (backups < 3 || !(producerWorkedDuringABackup && consumerWorkedDuringABackup)) {
                assertThat(backups).as("backups taken without seeing both children work").isLessThan(MAX_BACKUPS);
                int batchesBefore = batchesCommitted.get();
                int ackedBefore = jobsAcked.get();
                BackupResult result = queue.backup(dir.resolve("backup-" + backups));
                producerWorkedDuringABackup |= batchesCommitted.get() > batchesBefore;
                consumerWorkedDuringABackup |= jobsAcked.get() > ackedBefore;
                assertThat(result.verified()).isTrue();
                assertOnlyWholeBatches(result.databasePath(), batchesBefore, ackedBefore);
                Directories.deleteRecursively(result.destination());
                backups++;
            }
            int batchesAfter = batchesCommitted.get();
            int ackedAfter = jobsAcked.get();
            await().atMost(BOUND).until(() -> stillRunning(producerDone, consumerDone)
                    && batchesCommitted.get() >= batchesAfter + 3 && jobsAcked.get() >= ackedAfter + 3);

            producer.send(STOP);
            consumer.send(STOP);
            int batches = producerDone.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            int acked = consumerDone.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            producer.awaitSuccess();
            consumer.awaitSuccess();
            Map<Integer, Integer> all = batchSizes(source.resolve(LocalQueueDatabase.FILE_NAME));
            assertThat(all).hasSize(batches).allSatisfy((batch, size) -> assertThat(size).isEqualTo(BATCH_SIZE));
            assertThat(queue.stats().acked()).isEqualTo(acked);
        }
    }

    @Test
    void processesRacingToBackUpIntoOneDirectoryLeaveExactlyOneValidBackup() throws Exception {
        Path source = dir.resolve("source");
        Path destination = dir.resolve("backup");
        try (SimpleQueue<Object> queue = SimpleQueue.builder(source).build()) {
            queue.putMany(jobs(300));
            List<ChildProcess> racers = List.of(
                    children.start("racer-0", BackupChild.class, BACKUP, source, destination),
                    children.start("racer-1", BackupChild.class, BACKUP, source, destination));
            for (ChildProcess racer : racers) {
                racer.expect(READY);
            }
            ChildProcesses.sendAll(racers, GO);
            List<String> outcomes = new ArrayList<>();
            for (ChildProcess racer : racers) {
                outcomes.add(racer.nextLine());
                racer.awaitSuccess();
            }

            assertThat(outcomes).filteredOn(line -> line.startsWith(BACKED_UP + " ")).hasSize(1);
            assertThat(outcomes).filteredOn(line -> !line.startsWith(BACKED_UP + " "))
                    .containsExactly(EXISTS + " " + FileAlreadyExistsException.class.getName());
            assertValidCopyOf(source, destination);
        }
    }

    @Test
    void threadsAndAProcessRacingToBackUpIntoOneDirectoryLeaveExactlyOneValidBackup() throws Exception {
        Path source = dir.resolve("source");
        Path destination = dir.resolve("backup");
        try (SimpleQueue<Object> queue = SimpleQueue.builder(source).build()) {
            queue.putMany(jobs(300));
            ChildProcess racer = children.start("racer", BackupChild.class, BACKUP, source, destination);
            racer.expect(READY);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<BackupResult>> threadOutcomes = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                threadOutcomes.add(threads.submit(() -> {
                    start.await();
                    return queue.backup(destination);
                }));
            }
            racer.send(GO);
            start.countDown();
            int winners = 0;
            int losers = 0;
            String childOutcome = racer.nextLine();
            racer.awaitSuccess();
            if (childOutcome.startsWith(BACKED_UP + " ")) {
                winners++;
            } else {
                assertThat(childOutcome).isEqualTo(EXISTS + " " + FileAlreadyExistsException.class.getName());
                losers++;
            }
            for (Future<BackupResult> outcome : threadOutcomes) {
                try {
                    assertThat(outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS).verified()).isTrue();
                    winners++;
                } catch (ExecutionException failure) {
                    assertThat(failure.getCause()).isInstanceOf(LocalQueueException.class)
                            .hasCauseInstanceOf(FileAlreadyExistsException.class);
                    losers++;
                }
            }

            assertThat(winners).isEqualTo(1);
            assertThat(losers).isEqualTo(2);
            assertValidCopyOf(source, destination);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /**
     * Reads a looping child's output on a thread of its own: calls {@code onEvent} with the words after each
     * {@code event} line and completes with the count the child prints with DONE.
     */
    private Future<Integer> follow(ChildProcess child, String event, Consumer<List<String>> onEvent) {
        return threads.submit(() -> {
            while (true) {
                List<String> words = List.of(child.nextLine().split(" "));
                if (words.get(0).equals(DONE)) {
                    return Integer.parseInt(words.get(1));
                }
                assertThat(words.get(0)).as("event of %s", child).isEqualTo(event);
                onEvent.accept(words.subList(1, words.size()));
            }
        });
    }

    /** Fails at once, with the child's error, when a follower ended before the test stopped it. */
    private static boolean stillRunning(Future<?>... followers) throws Exception {
        for (Future<?> follower : followers) {
            if (follower.isDone()) {
                follower.get();
                throw new AssertionError("a child ended before it was told to stop");
            }
        }
        return true;
    }

    /**
     * Checks that every batch in a backup is complete, that the batches are 0…n without gaps, and that the copy holds
     * at least what the children had reported committed before the backup started.
     */
    private static void assertOnlyWholeBatches(Path copy, int batchesBefore, int ackedBefore) throws SQLException {
        Map<Integer, Integer> sizes = batchSizes(copy);
        assertThat(sizes).as("batches in %s", copy)
                .allSatisfy((batch, size) -> assertThat(size).as("rows of batch %d", batch).isEqualTo(BATCH_SIZE));
        assertThat(sizes.keySet()).as("batches in %s", copy).hasSizeGreaterThanOrEqualTo(batchesBefore)
                .allSatisfy(batch -> assertThat(batch).isLessThan(sizes.size()));
        assertThat(count(copy, "SELECT COUNT(*) FROM messages WHERE status = 2")).isGreaterThanOrEqualTo(ackedBefore);
    }

    /** Rows per batch number, read from the job ids {@code b<batch>-<item>}. */
    private static Map<Integer, Integer> batchSizes(Path file) throws SQLException {
        Map<Integer, Integer> sizes = new TreeMap<>();
        for (List<Object> row : rows(file, "SELECT job_id FROM messages")) {
            String jobId = (String) row.get(0);
            int batch = Integer.parseInt(jobId.substring(1, jobId.indexOf('-')));
            sizes.merge(batch, 1, Integer::sum);
        }
        return sizes;
    }

    private static void assertValidCopyOf(Path source, Path destination) throws Exception {
        Path copy = destination.resolve(LocalQueueDatabase.FILE_NAME);
        try (Stream<Path> files = Files.list(destination)) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactly(LocalQueueDatabase.FILE_NAME);
        }
        assertThat(rows(copy, "PRAGMA integrity_check")).containsExactly(List.of("ok"));
        String everything = "SELECT * FROM messages ORDER BY id";
        assertThat(rows(copy, everything)).hasSize(300)
                .isEqualTo(rows(source.resolve(LocalQueueDatabase.FILE_NAME), everything));
    }

    private static List<EnqueueItem<Object>> jobs(int count) {
        List<EnqueueItem<Object>> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(EnqueueItem.of(Map.of("n", i, "text", "job " + i), "job-" + i));
        }
        return items;
    }

    private static int statusOf(Path file, long id) throws SQLException {
        return count(file, "SELECT status FROM messages WHERE id = " + id);
    }

    private static int count(Path file, String sql) throws SQLException {
        return ((Number) rows(file, sql).get(0).get(0)).intValue();
    }

    private static List<List<Object>> rows(Path file, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = statement.executeQuery()) {
            int columns = rows.getMetaData().getColumnCount();
            List<List<Object>> result = new ArrayList<>();
            while (rows.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int column = 1; column <= columns; column++) {
                    Object value = rows.getObject(column);
                    row.add(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
                }
                result.add(row);
            }
            return result;
        }
    }
}
