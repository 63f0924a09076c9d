package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.EventBus;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** How an application opens queues on PostgreSQL through the public API: a pool of its own, or a URL. */
class OpeningTest {

    private final String schema = PostgresServer.freshSchema();

    @Test
    void aPoolOfTheApplicationsHoldsTheQueuesAndStaysOpenAfterTheHandleCloses() throws SQLException {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> emails = SimpleQueue.builder(database, String.class).name("emails").build()) {
            emails.put("hello");

            assertThat(database.isFile()).isFalse();
            assertThat(database.engine()).isEqualTo("PostgreSQL");
            assertThat(database.engineVersion()).startsWith("18.");
            assertThat(database.location()).startsWith("jdbc:postgresql://").endsWith("schema " + schema);
            assertThat(database.queueNames()).containsExactly("emails");
            assertThat(tables(schema)).contains("messages", "message_headers", "event_bus_executions");
        }

        try (Connection stillOpen = PostgresServer.pool().getConnection()) {
            assertThat(stillOpen.isValid(1)).isTrue();
        }
        try (LocalQueueDatabase again = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> emails = SimpleQueue.builder(again, String.class).name("emails").build()) {
            assertThat(emails.getNowait().data()).as("the job outlived the handle").isEqualTo("hello");
        }
    }

    @Test
    void aQueueBuiltOnADataSourceUsesTheDefaultSchemaAndSharesTheHandlesStore() {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool());
             SimpleQueue<String> alone = SimpleQueue.builder(PostgresServer.pool(), String.class).name(schema).build();
             SimpleQueue<String> onHandle = SimpleQueue.builder(database, String.class).name(schema).build()) {
            long id = alone.put("shared");

            assertThat(database.location()).endsWith("schema " + LocalQueueDatabase.DEFAULT_SCHEMA);
            Job<String> job = onHandle.getNowait();
            assertThat(job.id()).isEqualTo(id);
            onHandle.ack(job);
        }
    }

    @Test
    void aUrlOpensAPoolOfItsOwnThatClosingTheLastHandleCloses() throws SQLException {
        LocalQueueDatabase.ServerBuilder server = LocalQueueDatabase.server(PostgresServer.url()).username("postgres")
                .password("unused-by-trust").schema(schema).poolSize(4);
        try (LocalQueueDatabase database = server.open();
             LocalQueueDatabase joined = server.open();
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).build();
             SimpleQueue<String> sameQueue = SimpleQueue.builder(joined, String.class).build()) {
            queue.put("a");
            assertThat(sameQueue.getNowait().data()).isEqualTo("a");
            assertThat(poolConnections()).isBetween(1, 4);
        }

        // A backend leaves pg_stat_activity a moment after its client hung up.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(poolConnections()).as("connections of the closed pool").isZero());
    }

    @Test
    void aPasswordInTheUrlNeverShowsInTheLocationThatHealthAndLogsReport() {
        try (LocalQueueDatabase database = LocalQueueDatabase.server(PostgresServer.url()
                + "&password=s3cret-in-url").schema(schema).poolSize(3).open()) {
            assertThat(database.location()).startsWith("jdbc:postgresql://").endsWith("schema " + schema)
                    .doesNotContain("s3cret").doesNotContain("password");
        }
    }

    @Test
    void whatAServerHasNotIsRefusedByName(@TempDir Path directory) {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name("emails").build()) {
            assertThatThrownBy(database::path).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("PostgreSQL server").hasMessageContaining("schema " + schema);
            assertThatThrownBy(database::file).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(database::sqliteVersion).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("location()");
            assertThatThrownBy(queue::path).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("queue 'emails'");
            assertThatThrownBy(() -> queue.backup(directory.resolve("copy"))).isInstanceOf(LocalQueueException.class)
                    .hasMessageContaining("pg_dump --schema=" + schema);
        }
    }

    @Test
    void theEventBusRunsOnTheHandlesSchema() throws Exception {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             EventBus bus = EventBus.builder(database).topology(BusTopology.builder().route("audit", "*").build())
                     .build()) {
            java.util.concurrent.CompletableFuture<String> handled = new java.util.concurrent.CompletableFuture<>();
            bus.on("*", "audit", (event, context) -> {
                handled.complete(context.eventType());
                return null;
            });
            bus.start();
            bus.dispatch(new Signed("u-1"));

            assertThat(handled.get(20, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("Signed");
            assertThat(database.queueNames()).containsExactly("__bus__:default:audit");
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheSettingAndNeverThePassword() {
        assertThatThrownBy(() -> LocalQueueDatabase.server(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbcUrl");
        assertThatThrownBy(() -> LocalQueueDatabase.server(PostgresServer.url()).schema("Jobs"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema").hasMessageContaining("'Jobs'");
        assertThatThrownBy(() -> LocalQueueDatabase.server(PostgresServer.url()).poolSize(2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolSize must be at least 3");
        assertThatThrownBy(() -> LocalQueueDatabase.open(PostgresServer.pool(), "drop table"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema");

        assertThatThrownBy(() -> LocalQueueDatabase.server(PostgresServer.url().replaceAll("\\?.*", ""))
                .username("nobody").password("s3cret").schema(schema).open())
                .isInstanceOf(LocalQueueException.class).hasMessageContaining("cannot connect to")
                .hasMessageContaining("as nobody").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> LocalQueueDatabase.server("jdbc:mysql://localhost/app").open())
                .isInstanceOf(LocalQueueException.class).hasMessageContaining("no store for the database at "
                        + "jdbc:mysql://localhost/app");
    }

    @Test
    void aDataSourceOfAnotherDatabaseIsRefusedNamingIt(@TempDir Path directory) {
        SQLiteDataSource sqlite = new SQLiteDataSource();
        sqlite.setUrl("jdbc:sqlite:" + directory.resolve("other.db"));

        assertThatThrownBy(() -> LocalQueueDatabase.open(sqlite)).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("jdbc:sqlite:").hasMessageContaining("open a directory");
    }

    /** A small event of the test's own. */
    record Signed(String userId) {
    }

    private static java.util.List<String> tables(String schema) throws SQLException {
        try (Connection connection = PostgresServer.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT table_name FROM information_schema.tables WHERE table_schema = ?")) {
            select.setString(1, schema);
            java.util.List<String> names = new java.util.ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            return names;
        }
    }

    /** The connections that pools localqueue opened itself hold on the server. */
    private static int poolConnections() throws SQLException {
        try (Connection connection = PostgresServer.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'localqueue'")) {
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}
