package io.localqueue.multiprocess;

import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.READY;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.FailureReason;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.sqlite.Failpoints;
import io.localqueue.storage.LegacyDatabase;
import io.localqueue.testsupport.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A process that dies at the commit of a write transaction leaves that transaction wholly in the file or wholly out
 * of it. For every write transaction of the library, a child JVM makes the one call on a file this JVM prepared,
 * with a failpoint armed that halts it just before or just after the commit, as {@code kill -9} would; this JVM then
 * reads the whole file back with plain JDBC and compares it with what it held before: unchanged after a halt before
 * the commit, changed by exactly that transaction after one behind it. Either way the file passes its integrity
 * check and the queue still takes, delivers and acknowledges a job.
 */
class CrashFailpointTest extends MultiProcessTestBase {

    private static final List<String> STAGES = List.of("before-commit", "after-commit");

    /** How long ago the fixtures of expired leases and old settled jobs were made. */
    private static final Duration LONG_AGO = Duration.ofHours(1);

    private static final List<Crash> CRASHES = List.of(
            new Crash("put", "enqueue", FailpointChild.PUT, CrashFailpointTest::twoReadyJobs,
                    CrashFailpointTest::putApplied),
            new Crash("putMany", "enqueue", FailpointChild.PUT_MANY, CrashFailpointTest::twoReadyJobs,
                    CrashFailpointTest::putManyApplied),
            new Crash("getNowait", "claim", FailpointChild.GET, CrashFailpointTest::twoReadyJobs,
                    CrashFailpointTest::claimApplied),
            new Crash("getNowait reclaiming an expired lease", "claim", FailpointChild.GET,
                    CrashFailpointTest::expiredLeaseBeforeReadyJob, CrashFailpointTest::claimReclaimingApplied),
            new Crash("ack", "settle", FailpointChild.ACK, claimedJob(DeliveryPolicy.DEFAULT_MAX_RETRIES),
                    CrashFailpointTest::ackApplied),
            new Crash("ack from three threads at once", "settle", FailpointChild.ACK_TOGETHER,
                    CrashFailpointTest::threeClaimedJobs, CrashFailpointTest::ackTogetherApplied),
            new Crash("nack", "settle", FailpointChild.NACK, claimedJob(DeliveryPolicy.DEFAULT_MAX_RETRIES),
                    CrashFailpointTest::nackApplied),
            new Crash("nack of the last attempt", "settle", FailpointChild.NACK, claimedJob(0),
                    CrashFailpointTest::nackOfLastAttemptApplied),
            new Crash("fail", "settle", FailpointChild.FAIL, claimedJob(DeliveryPolicy.DEFAULT_MAX_RETRIES),
                    CrashFailpointTest::failApplied),
            new Crash("extendLease", "settle", FailpointChild.EXTEND_LEASE,
                    claimedJob(DeliveryPolicy.DEFAULT_MAX_RETRIES), CrashFailpointTest::extendLeaseApplied),
            new Crash("reclaimExpiredLeases", "reclaim", FailpointChild.RECLAIM,
                    CrashFailpointTest::expiredAndLiveLeases, CrashFailpointTest::reclaimApplied),
            new Crash("retryFailed", "retry-failed", FailpointChild.RETRY_FAILED, CrashFailpointTest::deadLetter,
                    CrashFailpointTest::retryFailedApplied),
            new Crash("purge", "purge", FailpointChild.PURGE, CrashFailpointTest::oldAndRecentSettledJobs,
                    CrashFailpointTest::purgeApplied),
            new Crash("vacuum", "vacuum", FailpointChild.VACUUM, CrashFailpointTest::freePages,
                    CrashFailpointTest::vacuumApplied),
            new Crash("open migrating a 1.0 file", "migration", FailpointChild.OPEN,
                    CrashFailpointTest::legacyFile, CrashFailpointTest::migrationApplied),
            new Crash("open creating a new file", "migration", FailpointChild.OPEN, CrashFailpointTest::noFile,
                    CrashFailpointTest::creationApplied, CrashFailpointTest::creationAbsent),
            new Crash("backup", "backup", FailpointChild.BACKUP, CrashFailpointTest::jobsToBackUp,
                    CrashFailpointTest::backupApplied, CrashFailpointTest::backupAbsent));

    static Stream<Arguments> crashes() {
        return CRASHES.stream().flatMap(crash -> STAGES.stream().map(stage -> Arguments.of(crash, stage)));
    }

    @ParameterizedTest(name = "{0}, halted {1}")
    @MethodSource("crashes")
    void aHaltAtTheCommitLeavesTheTransactionWhollyAppliedOrWhollyAbsent(Crash crash, String stage) throws Exception {
        Run run = new Run(dir.resolve("queue"), Files.createDirectories(dir.resolve("scratch")));
        List<Object> arguments = crash.preparation().prepare(run);
        FileSnapshot before = FileSnapshot.of(run.file());

        Object[] childArguments = Stream.concat(Stream.of(run.queue), arguments.stream()).toArray();
        String failpoint = "-D" + Failpoints.PROPERTY + "=" + crash.transaction() + ":" + stage + ":halt";
        ChildProcess child = children.start(crash.mode() + "-" + stage, List.of(failpoint), FailpointChild.class,
                crash.mode(), childArguments);
        child.expect(READY);
        run.go = System.currentTimeMillis();
        child.send(GO);
        assertThat(child.awaitExit(ChildProcesses.DEFAULT_WAIT))
                .as("exit status of %s with %s; stderr:%n%s", child, failpoint, child.stderr())
                .isEqualTo(Failpoints.HALT_STATUS);

        FileSnapshot after = FileSnapshot.of(run.file());
        if (stage.equals("before-commit")) {
            crash.absent().check(run, before, after);
        } else {
            crash.applied().check(run, before, after);
        }
        assertQueueStillWorks(run.queue);
    }

    // ---- preparations: each leaves the file as the one call finds it and returns the call's arguments ----------

    private static List<Object> twoReadyJobs(Run run) {
        try (SimpleQueue<Object> queue = open(run.queue)) {
            run.ids.put("first", queue.put("first"));
            run.ids.put("second", queue.put("second"));
        }
        return List.of();
    }

    /** A job whose delivery, claimed here, the child settles, and a ready job that must stay as it is. */
    private static Preparation claimedJob(int maxRetries) {
        return run -> {
            try (SimpleQueue<Object> queue = open(run.queue, Duration.ZERO, maxRetries)) {
                run.ids.put("job", queue.put("job"));
                Job<Object> job = queue.getNowait();
                run.ids.put("bystander", queue.put("bystander"));
                return List.of(job.id(), job.receipt());
            }
        };
    }

    /** Three jobs whose deliveries, claimed here, the child acks at once, and a ready job that must stay. */
    private static List<Object> threeClaimedJobs(Run run) {
        List<Object> deliveries = new ArrayList<>();
        try (SimpleQueue<Object> queue = open(run.queue)) {
            for (int i = 0; i < 3; i++) {
                run.ids.put("job-" + i, queue.put("job-" + i));
                Job<Object> job = queue.getNowait();
                deliveries.add(job.id());
                deliveries.add(job.receipt());
            }
            run.ids.put("bystander", queue.put("bystander"));
        }
        return deliveries;
    }

    /** A job without retries left whose lease ended long ago, ahead of a ready job. */
    private static List<Object> expiredLeaseBeforeReadyJob(Run run) {
        putAndClaim(run, "expired", LONG_AGO, 0);
        putReady(run, "next");
        return List.of();
    }

    /** A live lease, then two leases that ended long ago (one with retries left, one without), and a ready job. */
    private static List<Object> expiredAndLiveLeases(Run run) {
        putAndClaim(run, "live", Duration.ZERO, DeliveryPolicy.DEFAULT_MAX_RETRIES);
        putAndClaim(run, "expired", LONG_AGO, DeliveryPolicy.DEFAULT_MAX_RETRIES);
        putAndClaim(run, "exhausted", LONG_AGO, 0);
        putReady(run, "ready");
        return List.of();
    }

    /** Puts a job named {@code label} and claims it, through a queue whose clock is {@code ago} behind. */
    private static void putAndClaim(Run run, String label, Duration ago, int maxRetries) {
        try (SimpleQueue<Object> queue = open(run.queue, ago, maxRetries)) {
            run.ids.put(label, queue.put(label));
            queue.getNowait();
        }
    }

    /** Puts a ready job named {@code label}. */
    private static void putReady(Run run, String label) {
        try (SimpleQueue<Object> queue = open(run.queue)) {
            run.ids.put(label, queue.put(label));
        }
    }

    private static List<Object> deadLetter(Run run) {
        try (SimpleQueue<Object> queue = open(run.queue)) {
            run.ids.put("dead", queue.put("dead"));
            queue.fail(queue.getNowait(), "dead letter");
            run.ids.put("bystander", queue.put("bystander"));
        }
        return List.of(run.id("dead"));
    }

    /** Acked and failed jobs older than the purge's cutoff, and an acked and a ready job younger than it. */
    private static List<Object> oldAndRecentSettledJobs(Run run) {
        try (SimpleQueue<Object> past = open(run.queue, LONG_AGO, DeliveryPolicy.DEFAULT_MAX_RETRIES)) {
            run.ids.put("old-acked", past.put("old-acked"));
            past.ack(past.getNowait());
            run.ids.put("old-failed", past.put("old-failed"));
            past.fail(past.getNowait(), "old");
        }
        try (SimpleQueue<Object> queue = open(run.queue)) {
            run.ids.put("recent-acked", queue.put("recent-acked"));
            queue.ack(queue.getNowait());
            run.ids.put("ready", queue.put("ready"));
        }
        return List.of();
    }

    /** Free pages left by purging large acked jobs, which only a vacuum gives back. */
    private static List<Object> freePages(Run run) throws Exception {
        String padding = "x".repeat(4_000);
        try (SimpleQueue<Object> past = open(run.queue, LONG_AGO, DeliveryPolicy.DEFAULT_MAX_RETRIES)) {
            past.putMany(IntStream.range(0, 64).mapToObj(i -> EnqueueItem.<Object>of(padding + i)).toList());
            for (int i = 0; i < 64; i++) {
                past.ack(past.getNowait());
            }
        }
        try (SimpleQueue<Object> queue = open(run.queue)) {
            run.ids.put("kept", queue.put("kept"));
            assertThat(queue.purge(FailpointChild.PURGE_OLDER_THAN)).isEqualTo(64);
        }
        assertThat(FileSnapshot.of(run.file()).pragma("freelist_count")).as("free pages").isPositive();
        return List.of();
    }

    /** A file of the Python 1.0 layout, and a copy of it that this JVM migrated, for comparison. */
    private static List<Object> legacyFile(Run run) throws Exception {
        LegacyDatabase.create(Files.createDirectories(run.queue));
        LegacyDatabase.create(Files.createDirectories(run.reference()));
        SimpleQueue.builder(run.reference()).build().close();
        return List.of();
    }

    /** No file yet, and a file this JVM created, for comparison. */
    private static List<Object> noFile(Run run) {
        SimpleQueue.builder(run.reference()).build().close();
        return List.of();
    }

    private static List<Object> jobsToBackUp(Run run) {
        try (SimpleQueue<Object> queue = open(run.queue)) {
            queue.putMany(IntStream.range(0, 20).mapToObj(i -> EnqueueItem.<Object>of("job " + i)).toList());
            queue.getNowait();
        }
        return List.of(run.backup());
    }

    // ---- what each transaction, once committed, must have changed, and nothing else ---------------------------

    private static void putApplied(Run run, FileSnapshot before, FileSnapshot after) {
        List<Long> added = after.addedSince(before);
        assertThat(added).as("rows added").hasSize(1);
        assertReadyJob(run, after, added.get(0), FailpointChild.PUT_JOB_ID);
        after.assertUnchangedSince(before, Set.copyOf(added));
    }

    private static void putManyApplied(Run run, FileSnapshot before, FileSnapshot after) {
        List<Long> added = after.addedSince(before);
        assertThat(added).as("rows added").hasSameSizeAs(FailpointChild.PUT_MANY_JOB_IDS);
        for (int i = 0; i < added.size(); i++) {
            assertReadyJob(run, after, added.get(i), FailpointChild.PUT_MANY_JOB_IDS.get(i));
        }
        after.assertUnchangedSince(before, Set.copyOf(added));
    }

    private static void claimApplied(Run run, FileSnapshot before, FileSnapshot after) {
        assertLeased(run, after, run.id("first"), 1);
        after.assertUnchangedSince(before, Set.of(run.id("first")));
    }

    private static void claimReclaimingApplied(Run run, FileSnapshot before, FileSnapshot after) {
        assertThat(changed(run, after, "expired")).containsEntry("status", 3L).containsEntry("attempts", 1L)
                .containsEntry("failure_reason", FailureReason.RETRIES_EXHAUSTED.value())
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        assertLeased(run, after, run.id("next"), 1);
        after.assertUnchangedSince(before, Set.of(run.id("expired"), run.id("next")));
    }

    private static void ackApplied(Run run, FileSnapshot before, FileSnapshot after) {
        assertThat(changed(run, after, "job")).containsEntry("status", 2L).containsEntry("attempts", 1L)
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        after.assertUnchangedSince(before, Set.of(run.id("job")));
    }

    /**
     * The first commit holds the acks that were pending when it began, at least one and perhaps all three: each job
     * is either wholly acked or still leased exactly as before.
     */
    private static void ackTogetherApplied(Run run, FileSnapshot before, FileSnapshot after) {
        Set<Long> acked = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            long id = run.id("job-" + i);
            if (!after.row(id).equals(before.row(id))) {
                assertThat(changed(run, after, "job-" + i)).containsEntry("status", 2L).containsEntry("attempts", 1L)
                        .containsEntry("receipt", null).containsEntry("lease_until", null);
                acked.add(id);
            }
        }
        assertThat(acked).as("jobs acked by the first commit").isNotEmpty();
        after.assertUnchangedSince(before, acked);
    }

    private static void nackApplied(Run run, FileSnapshot before, FileSnapshot after) {
        Map<String, Object> row = changed(run, after, "job");
        assertThat(row).containsEntry("status", 0L).containsEntry("attempts", 1L)
                .containsEntry("last_error", FailpointChild.NACK_ERROR)
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        assertThat((Long) row.get("available_at")).as("due after the delay")
                .isGreaterThanOrEqualTo(run.go + FailpointChild.NACK_DELAY.toMillis());
        after.assertUnchangedSince(before, Set.of(run.id("job")));
    }

    private static void nackOfLastAttemptApplied(Run run, FileSnapshot before, FileSnapshot after) {
        deadLettered(run, before, after, FailureReason.RETRIES_EXHAUSTED, FailpointChild.NACK_ERROR);
    }

    private static void failApplied(Run run, FileSnapshot before, FileSnapshot after) {
        deadLettered(run, before, after, FailureReason.EXPLICIT_PERMANENT_FAILURE, FailpointChild.FAIL_ERROR);
    }

    /** The one job became a dead letter of its first delivery, with this reason and error; nothing else changed. */
    private static void deadLettered(Run run, FileSnapshot before, FileSnapshot after, FailureReason reason,
                                     String error) {
        assertThat(changed(run, after, "job")).containsEntry("status", 3L).containsEntry("attempts", 1L)
                .containsEntry("failure_reason", reason.value()).containsEntry("last_error", error)
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        after.assertUnchangedSince(before, Set.of(run.id("job")));
    }

    private static void extendLeaseApplied(Run run, FileSnapshot before, FileSnapshot after) {
        Map<String, Object> row = changed(run, after, "job");
        assertThat(row).containsEntry("status", 1L).containsEntry("attempts", 1L)
                .containsEntry("receipt", before.row(run.id("job")).get("receipt"));
        assertThat((Long) row.get("lease_until")).as("extended lease")
                .isGreaterThanOrEqualTo(run.go + FailpointChild.EXTENDED_LEASE.toMillis());
        after.assertUnchangedSince(before, Set.of(run.id("job")));
    }

    private static void reclaimApplied(Run run, FileSnapshot before, FileSnapshot after) {
        assertThat(changed(run, after, "expired")).containsEntry("status", 0L).containsEntry("attempts", 1L)
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        assertThat(changed(run, after, "exhausted")).containsEntry("status", 3L).containsEntry("attempts", 1L)
                .containsEntry("failure_reason", FailureReason.RETRIES_EXHAUSTED.value())
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        after.assertUnchangedSince(before, Set.of(run.id("expired"), run.id("exhausted")));
    }

    private static void retryFailedApplied(Run run, FileSnapshot before, FileSnapshot after) {
        Map<String, Object> row = changed(run, after, "dead");
        assertThat(row).containsEntry("status", 0L).containsEntry("attempts", 0L)
                .containsEntry("failure_reason", null).containsEntry("last_error", null)
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        assertThat((Long) row.get("available_at")).as("due at once").isGreaterThanOrEqualTo(run.go);
        after.assertUnchangedSince(before, Set.of(run.id("dead")));
    }

    private static void purgeApplied(Run run, FileSnapshot before, FileSnapshot after) {
        Set<Long> purged = Set.of(run.id("old-acked"), run.id("old-failed"));
        assertThat(after.messages()).as("rows left").doesNotContainKeys(purged.toArray(Long[]::new))
                .containsKeys(run.id("recent-acked"), run.id("ready"));
        after.assertUnchangedSince(before, purged);
    }

    private static void vacuumApplied(Run run, FileSnapshot before, FileSnapshot after) {
        assertThat(after.schema()).isEqualTo(before.schema());
        assertThat(after.tables()).as("rows").isEqualTo(before.tables());
        assertThat(after.pragma("freelist_count")).as("free pages").isZero();
        assertThat(after.pragma("page_count")).as("pages").isLessThan(before.pragma("page_count"));
    }

    private static void migrationApplied(Run run, FileSnapshot before, FileSnapshot after) throws Exception {
        assertThat(before.schema()).isNotEqualTo(after.schema());
        assertLike(after, FileSnapshot.of(run.reference().resolve(LocalQueueDatabase.FILE_NAME)));
    }

    private static void creationApplied(Run run, FileSnapshot before, FileSnapshot after) throws Exception {
        assertLike(after, FileSnapshot.of(run.reference().resolve(LocalQueueDatabase.FILE_NAME)));
    }

    private static void backupApplied(Run run, FileSnapshot before, FileSnapshot after) throws Exception {
        nothingChanged(run, before, after);
        try (Stream<Path> files = Files.list(run.backup())) {
            // The backup's lock file stays behind, as the process died holding it; only the copy counts.
            assertThat(files.map(file -> file.getFileName().toString()))
                    .containsExactlyInAnyOrder(LocalQueueDatabase.FILE_NAME, ".localqueue.db.incomplete.lock");
        }
        FileSnapshot copy = FileSnapshot.of(run.backup().resolve(LocalQueueDatabase.FILE_NAME));
        assertThat(copy.schema()).isEqualTo(before.schema());
        assertThat(copy.tables()).as("rows of the backup").isEqualTo(before.tables());
        assertIntegrity(run.backup());
    }

    // ---- what must hold when the halt came before the commit ---------------------------------------------------

    private static void nothingChanged(Run run, FileSnapshot before, FileSnapshot after) {
        assertThat(after).as("the file after a halt before the commit").isEqualTo(before);
    }

    /** A file whose schema was never committed holds nothing at all, if it exists. */
    private static void creationAbsent(Run run, FileSnapshot before, FileSnapshot after) {
        assertThat(after.schema()).as("schema objects").isEmpty();
        assertThat(after.tables()).as("tables").isEmpty();
    }

    /**
     * The halted process could not clean up: its destination holds the staged copy and never {@code localqueue.db};
     * a backup taken again into it clears that and succeeds.
     */
    private static void backupAbsent(Run run, FileSnapshot before, FileSnapshot after) throws Exception {
        nothingChanged(run, before, after);
        try (Stream<Path> files = Files.list(run.backup())) {
            assertThat(files.map(file -> file.getFileName().toString())).as("files in the destination")
                    .containsExactlyInAnyOrder(".localqueue.db.incomplete", ".localqueue.db.incomplete.lock");
        }
        try (SimpleQueue<Object> queue = open(run.queue)) {
            assertThat(queue.backup(run.backup()).verified()).isTrue();
        }
        try (Stream<Path> files = Files.list(run.backup())) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactly(LocalQueueDatabase.FILE_NAME);
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /** Checks the file's integrity, then puts a job and claims and acks until that job is acked. */
    private static void assertQueueStillWorks(Path directory) {
        assertIntegrity(directory);
        try (SimpleQueue<Object> queue = open(directory)) {
            long id = queue.put("after the crash");
            Job<Object> job;
            do {
                job = queue.getNowait();
                queue.ack(job);
            } while (job.id() != id);
            assertThat(queue.stats().acked()).isPositive();
        }
    }

    private static void assertIntegrity(Path directory) {
        try (SimpleQueue<Object> queue = open(directory)) {
            IntegrityCheckResult integrity = queue.checkIntegrity();
            assertThat(integrity.ok()).as("integrity of %s: %s", directory, integrity.messages()).isTrue();
        }
    }

    private static void assertLike(FileSnapshot actual, FileSnapshot expected) {
        assertThat(actual.schema()).as("schema").isEqualTo(expected.schema());
        assertThat(actual.tables()).as("rows").isEqualTo(expected.tables());
        assertThat(actual.pragmas()).as("pragmas").containsEntry("user_version",
                expected.pragmas().get("user_version"));
    }

    private static void assertReadyJob(Run run, FileSnapshot after, long id, String jobId) {
        Map<String, Object> row = after.row(id);
        assertThat(row).as("row %d", id).isNotNull().containsEntry("job_id", jobId).containsEntry("status", 0L)
                .containsEntry("attempts", 0L).containsEntry("payload", json(jobId))
                .containsEntry("receipt", null).containsEntry("lease_until", null);
        assertThat((Long) row.get("created_at")).isGreaterThanOrEqualTo(run.go);
    }

    private static void assertLeased(Run run, FileSnapshot after, long id, long attempts) {
        Map<String, Object> row = after.row(id);
        assertThat(row).as("row %d", id).isNotNull().containsEntry("status", 1L).containsEntry("attempts", attempts);
        assertThat(row.get("receipt")).as("receipt").isNotNull();
        assertThat((Long) row.get("lease_until")).as("lease end")
                .isGreaterThanOrEqualTo(run.go + DeliveryPolicy.DEFAULT_LEASE.toMillis());
    }

    /** The row of {@code label} after the transaction, which must have been written by it. */
    private static Map<String, Object> changed(Run run, FileSnapshot after, String label) {
        Map<String, Object> row = after.row(run.id(label));
        assertThat(row).as("row %s", label).isNotNull();
        assertThat((Long) row.get("updated_at")).as("updated_at of %s", label).isGreaterThanOrEqualTo(run.go);
        return row;
    }

    /** The stored form of a JSON string payload, as {@link io.localqueue.storage.RawSqlite} reads blobs. */
    private static String json(String text) {
        return "X'" + HexFormat.of().withUpperCase().formatHex(("\"" + text + "\"").getBytes(UTF_8)) + "'";
    }

    private static SimpleQueue<Object> open(Path directory) {
        return open(directory, Duration.ZERO, DeliveryPolicy.DEFAULT_MAX_RETRIES);
    }

    /** Opens the queue with a clock {@code ago} behind the real one. */
    private static SimpleQueue<Object> open(Path directory, Duration ago, int maxRetries) {
        return SimpleQueue.builder(directory).clock(Clock.offset(Clock.systemUTC(), ago.negated()))
                .delivery(DeliveryPolicy.defaults().withMaxRetries(maxRetries)).build();
    }

    /** One write transaction to crash in: the call the child makes, how to prepare for it and what to check. */
    record Crash(String operation, String transaction, String mode, Preparation preparation, Check applied,
                 Check absent) {

        Crash(String operation, String transaction, String mode, Preparation preparation, Check applied) {
            this(operation, transaction, mode, preparation, applied, CrashFailpointTest::nothingChanged);
        }

        @Override
        public String toString() {
            return operation + " (" + transaction + ")";
        }
    }

    @FunctionalInterface
    interface Preparation {
        /** Prepares the file and returns the call's arguments after the directory. */
        List<Object> prepare(Run run) throws Exception;
    }

    @FunctionalInterface
    interface Check {
        void check(Run run, FileSnapshot before, FileSnapshot after) throws Exception;
    }

    /** One case's directories, the ids its preparation noted by label, and when the child was released. */
    static final class Run {

        final Path queue;
        final Path scratch;
        final Map<String, Long> ids = new LinkedHashMap<>();
        long go;

        Run(Path queue, Path scratch) {
            this.queue = queue;
            this.scratch = scratch;
        }

        Path file() {
            return queue.resolve(LocalQueueDatabase.FILE_NAME);
        }

        Path reference() {
            return scratch.resolve("reference");
        }

        Path backup() {
            return scratch.resolve("backup");
        }

        long id(String label) {
            @Nullable Long id = ids.get(label);
            if (id == null) {
                throw new IllegalArgumentException("no job labelled " + label);
            }
            return id;
        }
    }
}
