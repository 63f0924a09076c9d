package io.localqueue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueOptions;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code queues} and {@code stats} on a queue directory, as a table and as JSON with stable field names; the exit
 * codes of bad usage (2) and of a target that is not there (1), which is never created.
 */
class QueuesAndStatsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void queuesAndStatsShowEachQueuesCounts() {
        seed();

        Cli queues = Cli.run("queues", "--path", dir.toString());
        assertThat(queues.exitCode()).isZero();
        assertThat(queues.out()).contains("QUEUE", "READY", "DEAD").containsPattern("emails\\s+1\\s+1\\s+0\\s+0\\s+1")
                .containsPattern("reports\\s+1\\s+0\\s+0\\s+0\\s+0");

        JsonNode json = JSON.readTree(Cli.run("queues", "--path", dir.toString(), "--json").out());
        assertThat(json.get("queues").get(0).get("name").asString()).isEqualTo("emails");
        assertThat(json.get("queues").get(0).get("dead").asLong()).isEqualTo(1);

        JsonNode stats = JSON.readTree(Cli.run("stats", "--path", dir.toString(), "--queue", "emails", "--json")
                .out());
        assertThat(stats.get("ready").asLong()).isEqualTo(1);
        assertThat(stats.get("delayed").asLong()).isEqualTo(1);
        assertThat(stats.get("dead").asLong()).isEqualTo(1);
        assertThat(stats.get("paused").asBoolean()).isTrue();
        assertThat(stats.get("maxConcurrent").asInt()).isEqualTo(3);

        Cli table = Cli.run("stats", "--path", dir.toString());
        assertThat(table.exitCode()).isZero();
        assertThat(table.out()).contains("PAUSED", "max 3");
    }

    @Test
    void badUsageExitsWithTwoAndSaysWhatIsMissing() {
        Cli none = Cli.run("queues");
        assertThat(none.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(none.err()).contains("--path DIR", "--url");
        Cli both = Cli.run("queues", "--path", dir.toString(), "--url", "jdbc:postgresql://h/db");
        assertThat(both.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(both.err()).contains("not both");
        assertThat(Cli.run("nonsense").exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(Cli.run("stats", "--path", dir.toString(), "--bogus").exitCode()).isEqualTo(LocalQueueCli.USAGE);
    }

    @Test
    void aDirectoryWithoutAQueueFileIsReportedAndNotCreated() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Cli missing = Cli.run("queues", "--path", empty.toString());
        assertThat(missing.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(missing.err()).contains("no queue file", "does not create one");
        assertThat(empty).isEmptyDirectory();
        Cli noDirectory = Cli.run("queues", "--path", dir.resolve("nowhere").toString());
        assertThat(noDirectory.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(dir.resolve("nowhere")).doesNotExist();

        seed();
        Cli unknown = Cli.run("stats", "--path", dir.toString(), "--queue", "nope");
        assertThat(unknown.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(unknown.err()).contains("no queue 'nope'");
    }

    @Test
    void everyCommandHasHelpAndTheShellCompletionIsGenerated() {
        for (String command : new String[] {"queues", "stats", "jobs", "failed list", "failed show", "failed retry",
                "failed purge", "pause", "resume", "recurring list", "recurring enable", "recurring disable",
                "recurring run", "check", "backup", "vacuum", "tail", "doctor"}) {
            Cli help = Cli.run((command + " --help").split(" "));
            assertThat(help.exitCode()).as(command).isZero();
            assertThat(help.out()).as(command).contains("--path", "--url", "--json", "--upgrade");
        }
        for (String group : new String[] {"failed", "recurring"}) {
            Cli bare = Cli.run(group);
            assertThat(bare.exitCode()).as(group).isEqualTo(LocalQueueCli.USAGE);
            assertThat(bare.err()).as(group).contains("name what to do");
        }
        Cli completion = Cli.run("generate-completion");
        assertThat(completion.exitCode()).isZero();
        assertThat(completion.out()).contains("complete", "localqueue");
    }

    private void seed() {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(dir);
             SimpleQueue<Object> emails = SimpleQueue.builder(database).name("emails").maxConcurrent(3).build();
             SimpleQueue<Object> reports = SimpleQueue.builder(database).name("reports").build()) {
            emails.put("a");
            emails.put("b", null, EnqueueOptions.defaults().delay(Duration.ofHours(1)));
            emails.put("c");
            emails.fail(emails.getNowait(), "boom");
            emails.pause();
            reports.put("r");
        }
    }
}
