package io.localqueue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.JobState;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.SimpleQueue;
import io.localqueue.storage.RawSqlite;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.sql.Connection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The commands beyond {@code queues} and {@code stats} on a file this library wrote: their tables, their JSON field by
 * field, what they change, and their exit codes.
 */
class CommandsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private final List<Long> dead = new ArrayList<>();
    private long acked;
    private long ready;

    @BeforeEach
    void seed() {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(dir);
             SimpleQueue<Object> emails = SimpleQueue.builder(database).name("emails").build()) {
            for (int i = 0; i < 3; i++) {
                emails.putMany(List.of(EnqueueItem.of((Object) Map.of("to", "dead" + i + "@example.com"))
                        .withHeaders(Map.of("traceparent", "00-" + i))));
                var job = emails.getNowait();
                dead.add(job.id());
                emails.fail(job, "SMTP 550: mailbox " + i + " unavailable");
            }
            acked = emails.put(Map.of("to", "a@example.com"));
            emails.ack(emails.getNowait());
            ready = emails.put(Map.of("to", "b@example.com"));
            emails.put(Map.of("to", "c@example.com"));
        }
    }

    private String path() {
        return dir.toString();
    }

    @Test
    void jobsPagesThroughAStateWithACursorAndNamesEveryFieldInJson() {
        Cli first = Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "ready", "--limit", "1");
        assertThat(first.exitCode()).isZero();
        assertThat(first.out()).contains("ID", "STATE", "ATTEMPTS").contains("1 of 2 ready jobs; next page: --after");

        JsonNode page = JSON.readTree(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "READY",
                "--limit", "1", "--json").out());
        assertThat(page.get("queue").asString()).isEqualTo("emails");
        assertThat(page.get("state").asString()).isEqualTo("ready");
        assertThat(page.get("count").asLong()).isEqualTo(2);
        assertThat(page.get("countCapped").asBoolean()).isFalse();
        JsonNode job = page.get("jobs").get(0);
        assertThat(fieldNames(job)).containsExactly("id", "queue", "jobId", "state", "attempts", "maxAttempts",
                "priority", "concurrencyKey", "dueAt", "leaseUntil", "createdAt", "updatedAt", "failureReason",
                "lastError", "cursor");
        assertThat(job.get("state").asString()).isEqualTo("ready");
        assertThat(job.get("attempts").asInt()).isZero();
        assertThat(job.get("maxAttempts").asInt()).isEqualTo(4);
        assertThat(job.get("jobId").isNull()).isTrue();
        assertThat(job.get("dueAt").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

        JsonNode second = JSON.readTree(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "ready",
                "--limit", "1", "--after", page.get("next").asString(), "--json").out());
        assertThat(second.get("jobs").get(0).get("id").asLong()).isGreaterThan(job.get("id").asLong());
        JsonNode third = JSON.readTree(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "ready",
                "--limit", "1", "--after", second.get("next").asString(), "--json").out());
        assertThat(third.get("jobs")).isEmpty();
        assertThat(third.get("next").isNull()).isTrue();

        JsonNode acked = JSON.readTree(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "acked",
                "--json").out());
        assertThat(acked.get("jobs").get(0).get("id").asLong()).isEqualTo(this.acked);

        assertThat(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "ready", "--limit", "0")
                .exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "ready", "--after", "x")
                .exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "sleeping").exitCode())
                .isEqualTo(LocalQueueCli.USAGE);
        Cli unknownQueue = Cli.run("jobs", "--path", path(), "--queue", "nope", "--state", "ready");
        assertThat(unknownQueue.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(unknownQueue.err()).contains("no queue 'nope'", "the queues are emails");
    }

    @Test
    void failedListAndShowPrintWhyEachFailedWithItsHeadersAndPayload() {
        Cli list = Cli.run("failed", "list", "--path", path(), "--queue", "emails");
        assertThat(list.exitCode()).isZero();
        assertThat(list.out()).contains("SMTP 550: mailbox 0 unavailable", "3 of 3 failed jobs");

        Cli show = Cli.run("failed", "show", "--path", path(), "--queue", "emails", String.valueOf(dead.get(1)),
                "--json");
        JsonNode shown = JSON.readTree(show.out());
        assertThat(shown.get("id").asLong()).isEqualTo(dead.get(1));
        assertThat(shown.get("state").asString()).isEqualTo("failed");
        assertThat(shown.get("lastError").asString()).isEqualTo("SMTP 550: mailbox 1 unavailable");
        assertThat(shown.get("failureReason").asString()).isEqualTo("explicit_permanent_failure");
        assertThat(shown.get("headers").get("traceparent").asString()).startsWith("00-");
        assertThat(shown.get("payloadEncoding").asString()).isEqualTo("utf-8");
        assertThat(shown.get("payload").asString()).contains("@example.com");

        Cli notDead = Cli.run("failed", "show", "--path", path(), "--queue", "emails", String.valueOf(ready));
        assertThat(notDead.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(notDead.err()).contains("is ready, not a dead letter");
        Cli missing = Cli.run("failed", "show", "--path", path(), "--queue", "emails", "999");
        assertThat(missing.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(missing.err()).contains("no job 999 in queue 'emails'");
    }

    @Test
    void retryAndPurgeChangeTheIdsGivenAndAskBeforeChangingMany() {
        Cli one = Cli.run("failed", "retry", "--path", path(), "--queue", "emails", String.valueOf(dead.get(0)),
                "--json");
        assertThat(one.exitCode()).isZero();
        JsonNode retried = JSON.readTree(one.out());
        assertThat(retried.get("action").asString()).isEqualTo("retry");
        assertThat(retried.get("done").get(0).asLong()).isEqualTo(dead.get(0));
        assertThat(stats()).isEqualTo(new QueueStats(3, 0, 1, 2));

        Cli unanswered = Cli.run("failed", "purge", "--path", path(), "--queue", "emails", "--all");
        assertThat(unanswered.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(unanswered.err()).contains("purge 2 dead letters of 'emails'?", "--yes");
        Cli refused = Cli.answering("n\n", "failed", "purge", "--path", path(), "--queue", "emails", "--all");
        assertThat(refused.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(refused.err()).contains("not confirmed");
        assertThat(stats().failed()).isEqualTo(2);

        Cli fresh = Cli.run("failed", "purge", "--path", path(), "--queue", "emails", "--older-than", "1h", "--yes");
        assertThat(fresh.exitCode()).isZero();
        assertThat(fresh.out()).contains("purge: 0 dead letters");
        assertThat(stats().failed()).isEqualTo(2);

        Cli withUnknown = Cli.answering("y\n", "failed", "purge", "--path", path(), "--queue", "emails",
                String.valueOf(dead.get(1)), "12345");
        assertThat(withUnknown.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(withUnknown.out()).contains("purge: 1 dead letter of 'emails' [" + dead.get(1) + "]");
        assertThat(withUnknown.err()).contains("no dead letter of 'emails' has the id [12345]");

        assertThat(Cli.run("failed", "retry", "--path", path(), "--queue", "emails", "--all", "--yes").exitCode())
                .isZero();
        assertThat(stats()).isEqualTo(new QueueStats(4, 0, 1, 0));

        assertThat(Cli.run("failed", "retry", "--path", path(), "--queue", "emails").exitCode())
                .isEqualTo(LocalQueueCli.USAGE);
        assertThat(Cli.run("failed", "retry", "--path", path(), "--queue", "emails", "--all", "5").exitCode())
                .isEqualTo(LocalQueueCli.USAGE);
        Cli badDuration = Cli.run("failed", "purge", "--path", path(), "--queue", "emails", "--older-than", "soon");
        assertThat(badDuration.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(badDuration.err()).contains("90s, 15m, 12h, 7d or PT1H");
    }

    @Test
    void aRepeatedIdIsChangedOnceAndTheQuestionCountsOnlyDeadLetters() {
        Cli twice = Cli.run("failed", "retry", "--path", path(), "--queue", "emails", String.valueOf(dead.get(0)),
                String.valueOf(dead.get(0)), "--json");
        assertThat(twice.exitCode()).as(twice.err()).isZero();
        JsonNode report = JSON.readTree(twice.out());
        assertThat(report.get("done")).hasSize(1);
        assertThat(report.get("notDeadLetters")).isEmpty();

        Cli mixed = Cli.answering("y\n", "failed", "purge", "--path", path(), "--queue", "emails",
                String.valueOf(dead.get(1)), String.valueOf(dead.get(2)), String.valueOf(ready), "abc");
        assertThat(mixed.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(mixed.err()).contains("'abc' is not a job id");
        Cli asked = Cli.answering("y\n", "failed", "purge", "--path", path(), "--queue", "emails",
                String.valueOf(dead.get(1)), String.valueOf(dead.get(2)), String.valueOf(ready));
        assertThat(asked.err()).contains("purge 2 dead letters of 'emails'?")
                .contains("no dead letter of 'emails' has the id [" + ready + "]");
        assertThat(asked.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(stats().failed()).isZero();
    }

    @Test
    void aPausedQueueThatEmptiedIsStillShownAndCanBeResumed() {
        try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
            emails.ack(emails.getNowait());
            emails.ack(emails.getNowait());
            emails.purge(Duration.ZERO);
        }
        assertThat(Cli.run("pause", "--path", path(), "--queue", "emails").exitCode()).isZero();
        assertThat(Cli.run("failed", "purge", "--path", path(), "--queue", "emails", "--all", "--yes").exitCode())
                .isZero();
        assertThat(Cli.run("queues", "--path", path(), "--json").out()).contains("\"emails\"");
        assertThat(Cli.run("stats", "--path", path()).out()).containsPattern("emails .* yes");
        assertThat(Cli.run("resume", "--path", path(), "--queue", "emails").out()).contains("emails runs again");

        Cli early = Cli.run("pause", "--path", path(), "--queue", "imports");
        assertThat(early.exitCode()).isZero();
        assertThat(early.err()).contains("note: no job of 'imports' is stored here yet (check the name)");
        assertThat(Cli.run("queues", "--path", path()).out()).contains("imports");
    }

    @Test
    void messagesNameTheProblemAndBadUsagePrintsTheUsage() throws Exception {
        Cli unknown = Cli.run("bogus");
        assertThat(unknown.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        Cli state = Cli.run("jobs", "--path", path(), "--queue", "emails", "--state", "sleeping");
        assertThat(state.err()).contains("'sleeping' is not a state: ready, delayed, leased, failed or acked")
                .contains("Usage: localqueue jobs");
        Cli blank = Cli.run("queues", "--path", "");
        assertThat(blank.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(blank.err()).contains("--path is empty");
        Cli file = Cli.run("queues", "--path", dir.resolve(LocalQueueDatabase.FILE_NAME).toString());
        assertThat(file.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(file.err()).contains("is a file: --path names the directory");
        Path empty = Files.createDirectory(dir.resolveSibling(dir.getFileName() + "-empty"));
        Files.createFile(empty.resolve(LocalQueueDatabase.FILE_NAME));
        Cli zero = Cli.run("vacuum", "--path", empty.toString(), "--upgrade");
        assertThat(zero.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(zero.err()).contains("is empty: no queue was ever stored in it");
        assertThat(empty.resolve(LocalQueueDatabase.FILE_NAME)).isEmptyFile();
        Files.delete(empty.resolve(LocalQueueDatabase.FILE_NAME));
        Files.delete(empty);
        Cli interval = Cli.run("tail", "--path", path(), "--queue", "emails", "--interval", "1ms");
        assertThat(interval.err()).contains("--interval must be at least 100ms, got 1ms");
        JsonNode stats = JSON.readTree(Cli.run("stats", "--path", path(), "--queue", "emails", "--json").out());
        assertThat(stats.get("observedAt").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        Cli question = Cli.answering("n\n", "failed", "purge", "--path", path(), "--queue", "emails", "--older-than",
                "0s");
        assertThat(question.err()).contains("that failed over 0s ago?");
    }

    @Test
    void aWriteWaitsForAnotherProcesssWriteLockAndThenGoesThrough() throws Exception {
        try (Connection holder = RawSqlite.connect(dir.resolve(LocalQueueDatabase.FILE_NAME))) {
            RawSqlite.execute(holder, "BEGIN IMMEDIATE");
            CompletableFuture<Cli> pause = CompletableFuture.supplyAsync(() -> Cli.run("pause", "--path", path(),
                    "--queue", "emails"));
            Thread.sleep(1_000); // the lock is held a while, well within the writers' budget
            assertThat(pause).isNotDone();
            RawSqlite.execute(holder, "ROLLBACK");
            Cli paused = pause.get(60, TimeUnit.SECONDS);
            assertThat(paused.exitCode()).as(paused.err()).isZero();
        }
        try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
            assertThat(emails.isPaused()).isTrue();
        }
    }

    @Test
    void aFileOfANewerLayoutIsRefusedByEveryCommandAndLeftAsItWas() throws Exception {
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (Connection connection = RawSqlite.connect(file)) {
            RawSqlite.execute(connection, "PRAGMA user_version = 9");
        }
        byte[] bytes = Files.readAllBytes(file);
        for (String[] command : new String[][] {{"queues"}, {"doctor"}, {"pause", "--queue", "emails", "--upgrade"},
                {"backup", dir.resolveSibling(dir.getFileName() + "-newer").toString()}}) {
            String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(command),
                    java.util.stream.Stream.of("--path", path())).toArray(String[]::new);
            Cli run = Cli.run(args);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(LocalQueueCli.PROBLEM);
            assertThat(run.err()).as(String.join(" ", args)).contains("written by a newer, incompatible localqueue");
            assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
        }
    }

    @Test
    void pauseAndResumeHoldForEveryProcess() {
        JsonNode paused = JSON.readTree(Cli.run("pause", "--path", path(), "--queue", "emails", "--json").out());
        assertThat(paused.get("paused").asBoolean()).isTrue();
        assertThat(paused.get("changed").asBoolean()).isTrue();
        assertThat(Cli.run("pause", "--path", path(), "--queue", "emails").out()).contains("was paused already");
        try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
            assertThat(emails.isPaused()).isTrue();
        }
        assertThat(Cli.run("resume", "--path", path(), "--queue", "emails").out()).contains("emails runs again");
        try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
            assertThat(emails.isPaused()).isFalse();
        }
    }

    @Test
    void recurringJobsAreListedDisabledEnabledAndRunByHand() {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(dir);
             SimpleQueue<Object> reports = SimpleQueue.builder(database).name("reports").build()) {
            RecurringJobs.on(database).schedule(RecurringJob.builder("nightly-report", "0 0 3 * * *")
                    .enqueue(reports, Map.of("report", "daily")).build());
        }
        JsonNode listed = JSON.readTree(Cli.run("recurring", "list", "--path", path(), "--json").out());
        JsonNode job = listed.get("recurring").get(0);
        assertThat(fieldNames(job)).containsExactly("id", "queue", "cron", "zone", "enabled", "missedTicks",
                "allowOverlap", "lastTick", "lastFiredAt", "lastJobId", "nextTick");
        assertThat(job.get("id").asString()).isEqualTo("nightly-report");
        assertThat(job.get("cron").asString()).isEqualTo("0 0 3 * * *");
        assertThat(job.get("enabled").asBoolean()).isTrue();

        assertThat(Cli.run("recurring", "disable", "--path", path(), "nightly-report").out())
                .contains("nightly-report is disabled");
        JsonNode run = JSON.readTree(Cli.run("recurring", "run", "--path", path(), "nightly-report", "--json")
                .out());
        assertThat(run.get("enabled").asBoolean()).isFalse();
        assertThat(run.get("enqueuedJobId").asLong()).isPositive();
        try (SimpleQueue<Object> reports = SimpleQueue.builder(dir).name("reports").build()) {
            assertThat(reports.countJobs(JobState.READY, 10)).isEqualTo(1);
        }
        assertThat(Cli.run("recurring", "enable", "--path", path(), "nightly-report").out())
                .contains("nightly-report is enabled");
        Cli unknown = Cli.run("recurring", "enable", "--path", path(), "weekly");
        assertThat(unknown.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(unknown.err()).contains("no recurring job 'weekly'");
    }

    @Test
    void checkBackupVacuumAndDoctorReportOnTheFile() throws Exception {
        JsonNode check = JSON.readTree(Cli.run("check", "--path", path(), "--json").out());
        assertThat(check.get("ok").asBoolean()).isTrue();
        assertThat(check.get("mode").asString()).isEqualTo("full");
        assertThat(Cli.run("check", "--path", path(), "--quick").out()).contains("passed the quick check");

        Path backup = dir.resolveSibling(dir.getFileName() + "-backup");
        Cli backedUp = Cli.run("backup", "--path", path(), backup.toString(), "--json");
        assertThat(backedUp.exitCode()).isZero();
        assertThat(JSON.readTree(backedUp.out()).get("verified").asBoolean()).isTrue();
        assertThat(JSON.readTree(backedUp.out()).get("file").asString())
                .isEqualTo(backup.resolve(LocalQueueDatabase.FILE_NAME).toAbsolutePath().toString());
        assertThat(backup.resolve(LocalQueueDatabase.FILE_NAME)).isRegularFile();
        Cli again = Cli.run("backup", "--path", path(), backup.toString());
        assertThat(again.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(again.err()).contains(backup.toString());

        JsonNode vacuumed = JSON.readTree(Cli.run("vacuum", "--path", path(), "--json").out());
        assertThat(vacuumed.get("sizeBytesAfter").asLong()).isPositive();

        try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
            emails.pause();
        }
        Cli doctor = Cli.run("doctor", "--path", path(), "--json");
        assertThat(doctor.exitCode()).isZero();
        JsonNode report = JSON.readTree(doctor.out());
        assertThat(report.get("facts").get("engine").asString()).isEqualTo("SQLite");
        assertThat(report.get("facts").get("layout").asString()).isEqualTo("current");
        assertThat(report.get("facts").get("quickCheck").asString()).isEqualTo("ok");
        assertThat(report.get("findings").toString()).contains("3 dead letter(s)", "paused since");
        assertThat(Cli.run("doctor", "--path", path()).out()).contains("2 finding(s):", "warning: emails: 3 dead");
        Files.delete(backup.resolve(LocalQueueDatabase.FILE_NAME));
    }

    @Test
    void tailPrintsEachJobPutAndEachChangeOfTheJobsItFollowsUntilStopped() throws Exception {
        for (boolean json : new boolean[] {false, true}) {
            Lines printed = new Lines();
            StringWriter errors = new StringWriter();
            List<String> args = new ArrayList<>(List.of("tail", "--path", path(), "--queue", "emails", "--interval",
                    "100ms"));
            if (json) {
                args.add("--json");
            }
            Thread tail = new Thread(() -> LocalQueueCli.run(args.toArray(String[]::new),
                    new BufferedReader(new StringReader("")), new PrintWriter(printed, true),
                    new PrintWriter(errors, true), Map.of()));
            tail.start();
            printed.await(json ? "\"event\":\"counts\"" : "following (Ctrl-C stops)", errors);
            long put;
            try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
                put = emails.put(Map.of("to", "new@example.com"), "order-" + json);
                printed.await(json ? "\"event\":\"put\",\"id\":" + put : "#" + put + " put (job id order-" + json
                        + ")", errors);
                var claimed = emails.getNowait();
                while (claimed.id() != put) {
                    emails.ack(claimed);
                    claimed = emails.getNowait();
                }
                emails.fail(claimed, "SMTP 550");
            }
            printed.await(json ? "\"event\":\"failed\"" : "#" + put + " failed: explicit_permanent_failure: "
                    + "SMTP 550", errors);
            tail.interrupt();
            tail.join(30_000);
            assertThat(tail.isAlive()).isFalse();
            if (json) {
                List<JsonNode> lines = printed.toString().lines().map(JSON::readTree).toList();
                assertThat(fieldNames(lines.get(0))).containsExactly("at", "queue", "event", "ready", "leased",
                        "acked", "dead");
                assertThat(lines.get(0).get("ready").asLong()).isZero();
                JsonNode putLine = lines.stream().filter(line -> line.get("event").asString().equals("put"))
                        .findFirst().orElseThrow();
                assertThat(fieldNames(putLine)).containsExactly("at", "queue", "event", "id", "jobId", "attempts",
                        "maxAttempts", "dueAt", "failureReason", "lastError");
                assertThat(putLine.get("jobId").asString()).isEqualTo("order-true");
                JsonNode failed = lines.get(lines.size() - 1);
                assertThat(failed.get("id").asLong()).isEqualTo(put);
                assertThat(failed.get("lastError").asString()).isEqualTo("SMTP 550");
            } else {
                assertThat(printed.toString()).contains("emails  following (Ctrl-C stops): ready 2, leased 0, "
                        + "acked 1, dead 3").doesNotContain("#" + (put - 1) + " ");
            }
        }
    }

    /** What a command prints, with a wait for a line to appear. */
    private static final class Lines extends Writer {

        private final StringBuilder text = new StringBuilder();

        @Override
        public synchronized void write(char[] buffer, int offset, int length) {
            text.append(buffer, offset, length);
            notifyAll();
        }

        synchronized void await(String expected, StringWriter errors) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (text.indexOf(expected) < 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                assertThat(left).as("waiting for '" + expected + "' in:\n" + text + "\n" + errors).isPositive();
                wait(left);
            }
        }

        @Override
        public synchronized String toString() {
            return text.toString();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private QueueStats stats() {
        try (SimpleQueue<Object> emails = SimpleQueue.builder(dir).name("emails").build()) {
            return emails.stats();
        }
    }

    static List<String> fieldNames(JsonNode node) {
        return new ArrayList<>(node.propertyNames());
    }
}
