package io.localqueue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link SimpleQueue#backup}: a verified, self-contained copy of the whole file in a new directory. */
@Tag(TestDatabases.FILE_ONLY)
class BackupTest extends QueueTestBase {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final String STAGED_NAME = ".localqueue.db.incomplete";

    // ---- the result ----------------------------------------------------------------------------------------------

    @Test
    void resultDescribesTheVerifiedCopy() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = dir.resolve("backup");

        BackupResult result = queue.backup(destination);

        Path copy = destination.resolve(LocalQueueDatabase.FILE_NAME);
        assertThat(result.schemaVersion()).isEqualTo(1).isEqualTo(BackupResult.SCHEMA_VERSION);
        assertThat(result.destination()).isEqualTo(destination);
        assertThat(result.databasePath()).isEqualTo(copy);
        assertThat(result.verified()).isTrue();
        assertThat(result.verificationMode()).isEqualTo(IntegrityCheckMode.FULL);
        assertThat(result.verificationMessages()).containsExactly("ok");
        assertThat(result.elapsed().isNegative()).isFalse();
        long pageCount = ((Number) RawSqlite.value(copy, "PRAGMA page_count")).longValue();
        long pageSize = ((Number) RawSqlite.value(copy, "PRAGMA page_size")).longValue();
        assertThat(result.pageCount()).isPositive().isEqualTo(pageCount);
        assertThat(result.pagesCopied()).isEqualTo(pageCount);
        assertThat(result.databaseSizeBytes()).isEqualTo(Files.size(copy)).isEqualTo(pageCount * pageSize);
    }

    @Test
    void copyHoldsEveryRowExactlyAsStored() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        List<List<Object>> rows = RawSqlite.messages(sourceFile());

        BackupResult result = queue.backup(dir.resolve("backup"));

        Path copy = result.databasePath();
        assertThat(rows.stream().map(row -> row.get(3))).as("statuses").contains(0, 1, 2, 3);
        assertThat(RawSqlite.messages(copy)).isEqualTo(rows);
        assertThat(RawSqlite.rows(copy, "SELECT failure_reason FROM messages WHERE status = 3 ORDER BY id"))
                .containsExactly(List.of("explicit_permanent_failure"), List.of("retries_exhausted"));
    }

    @Test
    void copyKeepsTheSchemaAndTheIdSequence() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        String schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name";
        String sequence = "SELECT name, seq FROM sqlite_sequence";
        long maxId = ((Number) RawSqlite.value(sourceFile(), "SELECT MAX(id) FROM messages")).longValue();

        BackupResult result = queue.backup(dir.resolve("backup"));

        Path copy = result.databasePath();
        assertThat(RawSqlite.rows(copy, schema)).isEqualTo(RawSqlite.rows(sourceFile(), schema));
        assertThat(RawSqlite.rows(copy, sequence)).isEqualTo(RawSqlite.rows(sourceFile(), sequence));
        assertThat(((Number) RawSqlite.value(copy, "SELECT seq FROM sqlite_sequence WHERE name = 'messages'"))
                .longValue()).as("a purged job's id is not handed out again").isGreaterThan(maxId);
    }

    @Test
    void copyIsOneFileInRollbackJournalModeWithoutSidecars() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        assertThat(dir.resolve("source").resolve(LocalQueueDatabase.FILE_NAME + "-wal")).exists();

        BackupResult result = queue.backup(dir.resolve("backup"));

        assertThat(fileNames(dir.resolve("backup"))).containsExactly(LocalQueueDatabase.FILE_NAME);
        assertThat(RawSqlite.value(result.databasePath(), "PRAGMA journal_mode")).isEqualTo("delete");
    }

    @Test
    void sourceKeepsWorkingAfterABackup() {
        SimpleQueue<Object> queue = populatedQueue();
        QueueStats before = queue.stats();

        queue.backup(dir.resolve("backup"));
        queue.put("after the backup");

        assertThat(queue.stats().ready()).isEqualTo(before.ready() + 1);
        assertThat(queue.checkIntegrity().ok()).isTrue();
    }

    // ---- destinations --------------------------------------------------------------------------------------------

    @Test
    void existingEmptyDirectoryIsRefusedAndLeftAlone() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = Files.createDirectory(dir.resolve("backup"));

        assertThatThrownBy(() -> queue.backup(destination))
                .isInstanceOf(LocalQueueException.class)
                .hasCauseInstanceOf(FileAlreadyExistsException.class);
        assertThat(destination).isEmptyDirectory();
    }

    @Test
    void existingDirectoryWithContentIsRefusedAndLeftAlone() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = Files.createDirectory(dir.resolve("backup"));
        Path keep = Files.writeString(destination.resolve(LocalQueueDatabase.FILE_NAME), "an older backup", UTF_8);

        assertThatThrownBy(() -> queue.backup(destination))
                .isInstanceOf(LocalQueueException.class)
                .hasCauseInstanceOf(FileAlreadyExistsException.class);
        assertThat(fileNames(destination)).containsExactly(LocalQueueDatabase.FILE_NAME);
        assertThat(keep).hasContent("an older backup");
    }

    @Test
    void aDestinationHoldingOnlyAnInterruptedBackupsStagedCopyIsClearedAndUsed() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = Files.createDirectory(dir.resolve("backup"));
        Files.writeString(destination.resolve(".localqueue.db.incomplete"), "half a copy", UTF_8);
        Files.writeString(destination.resolve(".localqueue.db.incomplete-journal"), "its journal", UTF_8);

        assertThat(queue.backup(destination).verified()).isTrue();
        assertThat(fileNames(destination)).containsExactly(LocalQueueDatabase.FILE_NAME);
    }

    @Test
    void aStagedCopyBesideAnythingElseIsRefusedAndLeftAlone() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = Files.createDirectory(dir.resolve("backup"));
        Files.writeString(destination.resolve(".localqueue.db.incomplete"), "half a copy", UTF_8);
        Files.writeString(destination.resolve("notes.txt"), "mine", UTF_8);

        assertThatThrownBy(() -> queue.backup(destination)).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("already exists");
        assertThat(fileNames(destination)).containsExactlyInAnyOrder(".localqueue.db.incomplete", "notes.txt");
    }

    @Test
    void existingFileIsRefusedAndLeftAlone() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = Files.writeString(dir.resolve("backup"), "not a directory", UTF_8);

        assertThatThrownBy(() -> queue.backup(destination))
                .isInstanceOf(LocalQueueException.class)
                .hasCauseInstanceOf(FileAlreadyExistsException.class);
        assertThat(destination).isRegularFile().hasContent("not a directory");
    }

    @Test
    void destinationInsideAMissingDirectoryIsRefusedAndNothingIsCreated() {
        SimpleQueue<Object> queue = populatedQueue();
        Path missingParent = dir.resolve("missing");

        assertThatThrownBy(() -> queue.backup(missingParent.resolve("backup")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(missingParent).doesNotExist();
    }

    @Test
    void destinationInsideTheQueueDirectoryIsRefused() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path queueDir = dir.resolve("source");
        List<String> before = fileNames(queueDir);

        assertThatThrownBy(() -> queue.backup(queueDir.resolve("backup")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.backup(dir.resolve("elsewhere/../source/backup")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(fileNames(queueDir)).isEqualTo(before);
    }

    @Test
    void theQueueDirectoryItselfIsRefused() {
        SimpleQueue<Object> queue = populatedQueue();

        assertThatThrownBy(() -> queue.backup(dir.resolve("source"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void destinationReachingIntoTheQueueDirectoryThroughASymbolicLinkIsRefused() throws IOException {
        SimpleQueue<Object> queue = populatedQueue();
        Path link = Files.createSymbolicLink(dir.resolve("link-to-source"), dir.resolve("source"));
        List<String> before = fileNames(dir.resolve("source"));

        assertThatThrownBy(() -> queue.backup(link.resolve("backup"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(fileNames(dir.resolve("source"))).isEqualTo(before);
    }

    @Test
    void relativeDestinationIsReportedExactlyAsGiven() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        Path relative = Path.of("").toAbsolutePath().relativize(dir.resolve("relative-backup"));
        assertThat(relative.isAbsolute()).isFalse();

        BackupResult result = queue.backup(relative);

        assertThat(result.destination()).isEqualTo(relative).hasToString(relative.toString());
        assertThat(result.databasePath()).isEqualTo(relative.resolve(LocalQueueDatabase.FILE_NAME));
        assertThat(RawSqlite.messages(dir.resolve("relative-backup").resolve(LocalQueueDatabase.FILE_NAME)))
                .isEqualTo(RawSqlite.messages(sourceFile()));
    }

    @Test
    void unicodeDestinationIsReportedExactlyAsGiven() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        Path destination = unicodePath(dir, "sauvegarde-\u00e9t\u00e9-\u65e5\u672c-\uD83D\uDCE6");

        BackupResult result = queue.backup(destination);

        assertThat(result.destination()).isEqualTo(destination).hasToString(destination.toString());
        assertThat(result.databasePath()).isEqualTo(destination.resolve(LocalQueueDatabase.FILE_NAME));
        assertThat(fileNames(dir)).contains(destination.getFileName().toString());
        assertThat(RawSqlite.messages(result.databasePath())).isEqualTo(RawSqlite.messages(sourceFile()));
    }

    @Test
    void relativeUnicodeDestinationIsReportedExactlyAsGiven() {
        SimpleQueue<Object> queue = populatedQueue();
        Path absolute = unicodePath(dir, "copie-\u00fcber-\u0441\u043a\u043e\u0440\u043e");
        Path relative = Path.of("").toAbsolutePath().relativize(absolute);

        BackupResult result = queue.backup(relative);

        assertThat(result.destination()).isEqualTo(relative).hasToString(relative.toString());
        assertThat(absolute.resolve(LocalQueueDatabase.FILE_NAME)).isRegularFile();
    }

    // ---- races and failures --------------------------------------------------------------------------------------

    @Test
    void threadsRacingIntoOneDirectoryLeaveExactlyOneBackup() throws Exception {
        SimpleQueue<Object> queue = populatedQueue();
        SimpleQueue<Object> other = open(SimpleQueue.builder(dir.resolve("source")));
        Path destination = dir.resolve("backup");
        int racers = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<Future<BackupResult>> outcomes = new ArrayList<>();
        try {
            for (int i = 0; i < racers; i++) {
                SimpleQueue<Object> racer = i % 2 == 0 ? queue : other;
                outcomes.add(pool.submit(() -> {
                    start.await();
                    return racer.backup(destination);
                }));
            }
            start.countDown();
            List<BackupResult> winners = new ArrayList<>();
            List<Throwable> losers = new ArrayList<>();
            for (Future<BackupResult> outcome : outcomes) {
                try {
                    winners.add(outcome.get(30, TimeUnit.SECONDS));
                } catch (ExecutionException failure) {
                    losers.add(failure.getCause());
                }
            }

            assertThat(winners).hasSize(1);
            assertThat(losers).hasSize(racers - 1).allSatisfy(failure -> assertThat(failure)
                    .isInstanceOf(LocalQueueException.class)
                    .hasCauseInstanceOf(FileAlreadyExistsException.class));
            assertThat(fileNames(destination)).containsExactly(LocalQueueDatabase.FILE_NAME);
            assertThat(RawSqlite.value(winners.get(0).databasePath(), "PRAGMA integrity_check")).isEqualTo("ok");
            assertThat(RawSqlite.messages(winners.get(0).databasePath())).isEqualTo(RawSqlite.messages(sourceFile()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void backupThatCannotReadTheSourceFailsAndLeavesNothingBehind() throws Exception {
        Path damaged = DamagedDatabase.create(dir);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(damaged));
        Path destination = dir.resolve("backup");

        assertThatThrownBy(() -> queue.backup(destination)).isInstanceOf(LocalQueueException.class);
        assertThat(destination).doesNotExist();
        assertThat(fileNames(dir)).containsExactlyInAnyOrder("original", "damaged");
    }

    @Test
    void closedQueueRefusesBackupAndCreatesNothing() {
        SimpleQueue<Object> queue = populatedQueue();
        queue.close();
        Path destination = dir.resolve("backup");

        assertThatThrownBy(() -> queue.backup(destination)).isInstanceOf(QueueClosedException.class);
        assertThat(destination).doesNotExist();
    }

    @Test
    void nullDestinationIsRefused() {
        SimpleQueue<Object> queue = populatedQueue();

        assertThatThrownBy(() -> queue.backup(null)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /**
     * Opens the queue in {@code dir/source} and fills the file with jobs in every state across four queue names:
     * acked, failed explicitly, leased, delayed after a nack with an error, ready, failed by exhausted retries, raw
     * bytes, and a purged job whose id stays used.
     */
    private SimpleQueue<Object> populatedQueue() {
        Path source = dir.resolve("source");
        SimpleQueue<Object> queue = open(SimpleQueue.builder(source).delivery(new DeliveryPolicy(LEASE, 3))
                .clock(clock));
        queue.put(Map.of("to", "ada@example.com", "subject", "h\u00e9llo \u2713"), "mail-1");
        queue.put(List.of(1, 2.5, true), "mail-2");
        queue.put("leased", "mail-3");
        queue.put("retry later", "mail-4");
        queue.put("still ready");
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait(), "card declined");
        queue.getNowait();
        queue.nack(queue.getNowait(), Duration.ofMinutes(5), "timeout talking to smtp");

        SimpleQueue<Object> once = open(SimpleQueue.builder(source).name("once")
                .delivery(new DeliveryPolicy(LEASE, 0)).clock(clock));
        once.put("only one try", "once-1");
        once.nack(once.getNowait(), Duration.ZERO, "gave up");

        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(source, new RawBytesSerializer()).name("raw")
                .clock(clock));
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        raw.put(everyByte, "bytes-1");

        SimpleQueue<Object> archive = open(SimpleQueue.builder(source).name("archive").clock(clock));
        archive.put("done long ago");
        archive.ack(archive.getNowait());
        clock.advance(Duration.ofSeconds(1));
        assertThat(archive.purge(Duration.ZERO)).isEqualTo(1);
        return queue;
    }

    private Path sourceFile() {
        return dir.resolve("source").resolve(LocalQueueDatabase.FILE_NAME);
    }

    private static List<String> fileNames(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    /** Resolves a name with non-ASCII characters, skipping the test where the platform cannot spell file names so. */
    private static Path unicodePath(Path parent, String name) {
        try {
            return parent.resolve(name);
        } catch (InvalidPathException unsupported) {
            Assumptions.abort("this platform's file-name encoding cannot represent " + name);
            throw unsupported;
        }
    }
}
