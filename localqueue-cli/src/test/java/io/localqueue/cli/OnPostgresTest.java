package io.localqueue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.postgresql.PostgresServer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The command line on a PostgreSQL schema: {@code --url} and {@code --schema}, the password from the environment. */
class OnPostgresTest {

    @Test
    void queuesAndStatsReadASchema() {
        String schema = PostgresServer.freshSchema();
        try (LocalQueueDatabase database = LocalQueueDatabase.server(PostgresServer.url()).schema(schema).open();
             SimpleQueue<Object> emails = SimpleQueue.builder(database).name("emails").build()) {
            emails.put("a");
            emails.put("b");
            emails.fail(emails.getNowait(), "boom");
        }

        Cli queues = Cli.run(Map.of("LOCALQUEUE_PASSWORD", ""), "queues", "--url", PostgresServer.url(),
                "--schema", schema);
        assertThat(queues.exitCode()).as(queues.err()).isZero();
        assertThat(queues.out()).containsPattern("emails\\s+1\\s+0\\s+0\\s+0\\s+1");
        JsonNode stats = JsonMapper.builder().build().readTree(Cli.run("stats", "--url", PostgresServer.url(),
                "--schema", schema, "--queue", "emails", "--json").out());
        assertThat(stats.get("dead").asLong()).isEqualTo(1);
        Cli notPostgres = Cli.run("queues", "--url", "jdbc:mysql://h/db");
        assertThat(notPostgres.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(notPostgres.err()).contains("PostgreSQL JDBC URL");
    }

    @Test
    void everyCommandWorksOnASchema() throws Exception {
        String schema = PostgresServer.freshSchema();
        long dead;
        try (LocalQueueDatabase database = LocalQueueDatabase.server(PostgresServer.url()).schema(schema).open();
             SimpleQueue<Object> emails = SimpleQueue.builder(database).name("emails").build()) {
            emails.put("a");
            emails.put("b");
            emails.put("c");
            var job = emails.getNowait();
            dead = job.id();
            emails.fail(job, "SMTP 550");
            RecurringJobs.on(database).schedule(RecurringJob.builder("nightly", "0 0 3 * * *")
                    .enqueue(emails, "report").build());
        }
        String[] target = {"--url", PostgresServer.url(), "--schema", schema};
        JsonMapper json = JsonMapper.builder().build();

        JsonNode ready = json.readTree(run(target, "jobs", "--queue", "emails", "--state", "ready", "--json").out());
        assertThat(ready.get("count").asLong()).isEqualTo(2);
        assertThat(ready.get("jobs").get(0).get("state").asString()).isEqualTo("ready");
        JsonNode shown = json.readTree(run(target, "failed", "show", "--queue", "emails", String.valueOf(dead),
                "--json").out());
        assertThat(shown.get("lastError").asString()).isEqualTo("SMTP 550");
        assertThat(run(target, "failed", "list", "--queue", "emails").out()).contains("SMTP 550");
        assertThat(run(target, "failed", "retry", "--queue", "emails", String.valueOf(dead)).out())
                .contains("retry: 1 dead letter");
        assertThat(json.readTree(run(target, "pause", "--queue", "emails", "--json").out()).get("paused")
                .asBoolean()).isTrue();
        assertThat(run(target, "resume", "--queue", "emails").out()).contains("runs again");
        assertThat(run(target, "recurring", "list").out()).contains("nightly", "0 0 3 * * *");
        assertThat(run(target, "recurring", "disable", "nightly").out()).contains("nightly is disabled");
        assertThat(json.readTree(run(target, "recurring", "run", "nightly", "--json").out()).get("enqueuedJobId")
                .asLong()).isPositive();
        assertThat(json.readTree(run(target, "check", "--json").out()).get("ok").asBoolean()).isTrue();
        assertThat(run(target, "vacuum").out()).contains("vacuumed");
        JsonNode doctor = json.readTree(run(target, "doctor", "--json").out());
        assertThat(doctor.get("facts").get("engine").asString()).isEqualTo("PostgreSQL");
        assertThat(run(target, "tail", "--queue", "emails", "--for", "200ms", "--interval", "100ms").out())
                .contains("following", "ready 4");
        assertThat(run(target, "failed", "purge", "--queue", "emails", "--all", "--yes").out())
                .contains("purge: 0 dead letters");

        Cli typo = Cli.run(Map.of(), "queues", "--url", PostgresServer.url(), "--schema", schema + "_typo");
        assertThat(typo.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(typo.err()).contains("schema '" + schema + "_typo' holds no localqueue tables", "--upgrade");
        assertThat(LocalQueueDatabase.server(PostgresServer.url()).schema(schema + "_typo").isCurrentLayout())
                .as("the schema, still missing").isFalse();
        Cli created = Cli.run(Map.of(), "queues", "--url", PostgresServer.url(), "--schema", schema + "_new",
                "--upgrade");
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(LocalQueueDatabase.server(PostgresServer.url()).schema(schema + "_new").isCurrentLayout())
                .isTrue();

        Cli backup = Cli.run(Map.of(), concat(target, "backup", "/tmp/never"));
        assertThat(backup.exitCode()).isEqualTo(LocalQueueCli.PROBLEM);
        assertThat(backup.err()).contains("pg_dump");
    }

    private static Cli run(String[] target, String... command) {
        Cli run = Cli.run(Map.of(), concat(target, command));
        assertThat(run.exitCode()).as(String.join(" ", command) + "\n" + run.err()).isZero();
        return run;
    }

    private static String[] concat(String[] target, String... command) {
        String[] all = new String[command.length + target.length];
        System.arraycopy(command, 0, all, 0, command.length);
        System.arraycopy(target, 0, all, command.length, target.length);
        return all;
    }
}
