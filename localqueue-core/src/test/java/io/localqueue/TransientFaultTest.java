package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.localqueue.internal.store.sqlite.Failpoints;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fault SQLite reports on a write or a read (a full disk, an I/O error, a damaged page) costs the call that met it
 * and nothing more: once the cause is gone, the same open queue writes and reads again, and nothing half-done is
 * left behind. Real faults where the machine allows them (a size-limited tmpfs and {@code chattr +i} need root),
 * and errors injected at the driver boundary everywhere.
 */
@Tag(TestDatabases.FILE_ONLY)
class TransientFaultTest extends QueueTestBase {

    private final List<String[]> cleanups = new ArrayList<>();

    @AfterEach
    void undoFaults() throws Exception {
        Failpoints.disarmAll();
        closeOpened();
        for (int i = cleanups.size() - 1; i >= 0; i--) {
            run(cleanups.get(i));
        }
    }

    @Test
    void writesWorkAgainOnceAFullDiskHasSpace() throws Exception {
        Path mount = mountTmpfs(dir.resolve("small"), "2m");
        assumeThat(mount).as("a size-limited tmpfs can be mounted (needs root on Linux)").isNotNull();
        Path filler = mount.resolve("filler");
        Files.write(filler, new byte[512 * 1024]);
        SimpleQueue<String> queue = open(SimpleQueue.builder(mount.resolve("queue"), String.class));
        List<Long> accepted = new ArrayList<>();
        LocalQueueException full = null;
        for (int i = 0; i < 10_000 && full == null; i++) {
            try {
                accepted.add(queue.put("x".repeat(4000) + i));
            } catch (LocalQueueException failure) {
                full = failure;
            }
        }
        assertThat(full).as("the disk filled up").isNotNull().hasMessageContaining("SQLITE_FULL");
        assertThatThrownBy(() -> queue.put("still full")).hasMessageContaining("SQLITE_FULL");

        Files.delete(filler);
        long id = queue.put("after space came back");
        Job<String> first = queue.getNowait();
        queue.ack(first);

        assertThat(first.id()).isEqualTo(accepted.get(0));
        List<Long> expected = new ArrayList<>(accepted);
        expected.add(id);
        assertThat(RawSqlite.rows(mount.resolve("queue").resolve(LocalQueueDatabase.FILE_NAME),
                "SELECT id FROM messages ORDER BY id").stream().map(row -> ((Number) row.get(0)).longValue()))
                .as("every returned put is stored, and nothing of the failed ones").containsExactlyElementsOf(expected);
    }

    @Test
    void writesWorkAgainOnceAnImmutableWalIsWritable() throws Exception {
        SimpleQueue<String> queue = open(SimpleQueue.builder(dir, String.class));
        queue.put("before");
        Path wal = dir.resolve(LocalQueueDatabase.FILE_NAME + "-wal");
        assumeThat(run("chattr", "+i", wal.toString())).as("chattr +i works here (needs root)").isTrue();
        cleanups.add(new String[] {"chattr", "-i", wal.toString()});

        assertThatThrownBy(() -> queue.put("refused")).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("SQLITE_IOERR");
        run("chattr", "-i", wal.toString());

        queue.put("after");
        assertThat(drain(queue)).containsExactly("before", "after");
    }

    @Test
    void writesAndReadsWorkAgainOnceADamagedPageReadsWellAgain() throws Exception {
        Path damaged = DamagedDatabase.create(dir);
        Path file = damaged.resolve(LocalQueueDatabase.FILE_NAME);
        SimpleQueue<String> queue = open(SimpleQueue.builder(damaged, String.class));
        assertThatThrownBy(() -> queue.put("into a damaged file")).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("SQLITE_CORRUPT");
        assertThatThrownBy(queue::getNowait).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("SQLITE_CORRUPT");

        // The fault was transient, as a bad read from a device can be: the page reads as it was written again.
        byte[] healthy = Files.readAllBytes(dir.resolve("original").resolve(LocalQueueDatabase.FILE_NAME));
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.write(healthy);
        }

        long id = queue.put("after repair");
        assertThat(queue.getNowait().id()).isEqualTo(1);
        assertThat(queue.stats().pending()).isEqualTo(2001);
        assertThat(queue.checkIntegrity().ok()).isTrue();
        assertThat(RawSqlite.value(file, "SELECT COUNT(*) FROM messages WHERE id = ?", id)).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SQLITE_FULL", "SQLITE_IOERR_WRITE", "SQLITE_CORRUPT", "SQLITE_IOERR_FSYNC"})
    void anInjectedFaultBeforeCommitCostsOnePutAndLeavesNothingBehind(String code) {
        SimpleQueue<String> queue = open(SimpleQueue.builder(dir, String.class));
        queue.put("first");
        Failpoints.arm("enqueue:before-commit:error=" + code);

        assertThatThrownBy(() -> queue.put("lost to the fault")).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining(code);
        queue.put("second");

        assertThat(drain(queue)).containsExactly("first", "second");
    }

    @Test
    void anInjectedFaultOnAnAckLeavesTheLeaseWhichASecondAckSettles() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(dir, String.class));
        queue.put("job");
        Job<String> job = queue.getNowait();
        Failpoints.arm("settle:before-commit:error=SQLITE_IOERR_WRITE");

        assertThatThrownBy(() -> queue.ack(job)).hasMessageContaining("SQLITE_IOERR_WRITE");
        assertThat(queue.stats().processing()).isEqualTo(1);
        queue.ack(job);

        assertThat(queue.stats().acked()).isEqualTo(1);
    }

    @Test
    void anInjectedFaultOnAClaimLeavesTheJobReadyForTheNextGet() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(dir, String.class));
        queue.put("job");
        Failpoints.arm("claim:before-commit:error=SQLITE_IOERR_WRITE");

        assertThatThrownBy(() -> queue.get(Duration.ofSeconds(5))).hasMessageContaining("SQLITE_IOERR_WRITE");
        Job<String> job = queue.getNowait();

        assertThat(job.data()).isEqualTo("job");
        assertThat(job.attempts()).as("the failed claim spent no delivery").isZero();
    }

    @Test
    void aWorkersSettlementThatMetAFaultIsRecordedAgainWithoutASecondDelivery() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(dir, String.class)
                .delivery(new DeliveryPolicy(Duration.ofSeconds(30), 3)));
        for (int i = 0; i < 20; i++) {
            queue.put("job " + i);
        }
        Failpoints.arm("settle:before-commit:error=SQLITE_IOERR_WRITE");
        List<String> handled = new java.util.concurrent.CopyOnWriteArrayList<>();
        Worker<String> worker = Worker.builder(queue, job -> handled.add(job.data())).concurrency(2)
                .pollInterval(Duration.ofMillis(20)).build();
        try (WorkerLog settlements = new WorkerLog("io.localqueue.internal.engine.GroupCommit")) {
            worker.start();
            try {
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                        .until(() -> queue.stats().acked() == 20);
            } finally {
                worker.stop();
            }
            assertThat(settlements.count("failed; trying again until each one's lease ends")).isEqualTo(1);
            assertThat(settlements.count("works again after 1 failed attempt(s)")).isEqualTo(1);
        }
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 20, 0));
        assertThat(handled).as("each job ran once: the failed settlement was tried again within its lease")
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, 20)
                        .mapToObj(i -> "job " + i).toList());
    }

    private static List<String> drain(SimpleQueue<String> queue) {
        List<String> seen = new ArrayList<>();
        while (queue.stats().pending() > 0) {
            Job<String> job = queue.getNowait();
            seen.add(job.data());
            queue.ack(job);
        }
        return seen;
    }

    private @Nullable Path mountTmpfs(Path at, String size) throws IOException {
        if (!System.getProperty("os.name").startsWith("Linux")) {
            return null;
        }
        Files.createDirectories(at);
        if (!run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())) {
            return null;
        }
        cleanups.add(new String[] {"umount", at.toString()});
        return at;
    }

    private static boolean run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        try {
            return process.waitFor() == 0;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
