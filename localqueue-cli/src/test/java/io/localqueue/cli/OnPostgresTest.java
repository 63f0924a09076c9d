package io.localqueue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.LocalQueueDatabase;
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
        assertThat(queues.out()).containsPattern("emails\\s+1\\s+0\\s+0\\s+1");
        JsonNode stats = JsonMapper.builder().build().readTree(Cli.run("stats", "--url", PostgresServer.url(),
                "--schema", schema, "--queue", "emails", "--json").out());
        assertThat(stats.get("dead").asLong()).isEqualTo(1);
        Cli notPostgres = Cli.run("queues", "--url", "jdbc:mysql://h/db");
        assertThat(notPostgres.exitCode()).isEqualTo(LocalQueueCli.USAGE);
        assertThat(notPostgres.err()).contains("PostgreSQL JDBC URL");
    }
}
