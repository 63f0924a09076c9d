package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.ServerSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The layout on a real PostgreSQL server: in the schema asked for, idempotent, safe under concurrent starts. */
class PostgresSchemaTest {

    private final String schema = PostgresServer.freshSchema();

    @Test
    void theLayoutIsCreatedInTheSchemaAskedForWithItsIndexesAndVersion() throws SQLException {
        try (Connection connection = PostgresServer.connect()) {
            PostgresSchema.createOrMigrate(connection, schema);

            assertThat(connection.getAutoCommit()).as("handed back as it came").isTrue();
            assertThat(names(connection, "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                    + schema + "' ORDER BY 1")).containsExactly("event_bus_delivery_edges",
                    "event_bus_execution_deliveries", "event_bus_execution_runtime", "event_bus_executions",
                    "ingestion_checkpoints", "localqueue_schema", "localqueue_turns", "message_headers", "messages",
                    "queue_claims", "queue_controls", "recurring_jobs", "recurring_ticks");
            assertThat(names(connection, "SELECT indexname FROM pg_indexes WHERE schemaname = '" + schema
                    + "' AND tablename = 'messages' ORDER BY 1")).containsExactly("messages_claim_order",
                    "messages_dedup_key", "messages_failed", "messages_finished", "messages_held", "messages_job_id",
                    "messages_leased", "messages_leased_keys", "messages_pkey");
            assertThat(names(connection, "SELECT version::text FROM " + schema + ".localqueue_schema"))
                    .containsExactly(String.valueOf(PostgresSchema.VERSION));
        }
    }

    @Test
    void theLayoutIsCurrentOnlyOnceCreatedAndTheLookCreatesNothing() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            assertThat(PostgresSchema.isCurrent(connection, schema)).as("a schema that does not exist").isFalse();
            assertThat(names(connection, "SELECT schema_name FROM information_schema.schemata WHERE schema_name = '"
                    + schema + "'")).as("not created by the look").isEmpty();

            PostgresSchema.createOrMigrate(connection, schema);
            assertThat(PostgresSchema.isCurrent(connection, schema)).isTrue();

            statement.execute("ALTER TABLE " + schema + ".messages DROP COLUMN concurrency_key");
            assertThat(PostgresSchema.isCurrent(connection, schema)).as("a column missing").isFalse();
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("DROP TABLE " + schema + ".recurring_ticks");
            assertThat(PostgresSchema.isCurrent(connection, schema)).as("a table missing").isFalse();
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("UPDATE " + schema + ".localqueue_schema SET version = " + (PostgresSchema.VERSION + 1));
            assertThatThrownBy(() -> PostgresSchema.isCurrent(connection, schema))
                    .isInstanceOf(LocalQueueException.class).hasMessageContaining("newer than this version's");
        }
    }

    @Test
    void aDeliveryAnExecutionReportsOnCannotBeDeletedAndEdgesGoWithTheirDeliveries() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("INSERT INTO " + schema + ".messages (id, queue, payload, status, max_attempts, "
                    + "available_at, created_at, updated_at) VALUES (1, 'q', '\\x00', 2, 4, 1, 1, 1), "
                    + "(2, 'q', '\\x00', 2, 4, 1, 1, 1)");
            statement.execute("INSERT INTO " + schema + ".event_bus_executions (execution_id, bus_name, source_name, "
                    + "created_at, updated_at) VALUES ('e1', 'default', 'users', 1, 1)");
            statement.execute("INSERT INTO " + schema + ".event_bus_execution_deliveries VALUES ('e1', 1)");
            statement.execute("INSERT INTO " + schema + ".event_bus_delivery_edges VALUES (2, 1)");

            assertThatThrownBy(() -> statement.execute("DELETE FROM " + schema + ".messages WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("event_bus_execution_deliveries");
            statement.execute("DELETE FROM " + schema + ".messages WHERE id = 2");
            assertThat(names(connection, "SELECT count(*)::text FROM " + schema + ".event_bus_delivery_edges"))
                    .containsExactly("0");
        }
    }

    @Test
    void aSecondCreationChangesNothingAndKeepsTheRows() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("INSERT INTO " + schema + ".messages (queue, payload, status, max_attempts, "
                    + "available_at, created_at, updated_at) VALUES ('emails', '\\x7b7d', 0, 4, 1, 1, 1)");

            PostgresSchema.createOrMigrate(connection, schema);

            assertThat(names(connection, "SELECT queue FROM " + schema + ".messages")).containsExactly("emails");
        }
    }

    @Test
    void theFullStateIndexOfEarlierLayoutsIsDroppedAndItsPartialSuccessorKept() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("CREATE INDEX messages_state ON " + schema + ".messages (queue, status, updated_at)");

            PostgresSchema.createOrMigrate(connection, schema);

            assertThat(names(connection, "SELECT indexname FROM pg_indexes WHERE schemaname = '" + schema
                    + "' AND indexname LIKE 'messages_%' ORDER BY 1")).contains("messages_finished")
                    .doesNotContain("messages_state");
        }
    }

    @Test
    void aLayoutWithoutPrioritiesGainsItsColumnsAndClaimOrderIndexKeepingEveryRow() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("DROP INDEX " + schema + ".messages_claim_order");
            statement.execute("ALTER TABLE " + schema + ".messages DROP COLUMN priority, DROP COLUMN concurrency_key");
            statement.execute("CREATE INDEX messages_ready ON " + schema + ".messages (queue, available_at, id) "
                    + "WHERE status = 0");
            statement.execute("INSERT INTO " + schema + ".messages (queue, payload, status, max_attempts, "
                    + "available_at, created_at, updated_at) VALUES ('emails', '\\x7b7d', 0, 4, 1, 1, 1)");

            PostgresSchema.createOrMigrate(connection, schema);

            assertThat(names(connection, "SELECT indexname FROM pg_indexes WHERE schemaname = '" + schema
                    + "' AND indexname LIKE 'messages_%' ORDER BY 1")).contains("messages_claim_order")
                    .doesNotContain("messages_ready");
            assertThat(names(connection, "SELECT queue || ' ' || priority || ' ' || coalesce(concurrency_key, '-') "
                    + "FROM " + schema + ".messages")).containsExactly("emails 0 -");
        }
    }

    @Test
    void aMigratedLayoutIsOpenedAgainWithoutWaitingForTheTablesLock() throws Exception {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement();
             Connection reader = PostgresServer.connect(); Statement read = reader.createStatement()) {
            PostgresSchema.createOrMigrate(connection, schema);
            read.execute("BEGIN");
            read.execute("SELECT count(*) FROM " + schema + ".messages");
            statement.execute("SET lock_timeout = '2s'");

            PostgresSchema.createOrMigrate(connection, schema);

            read.execute("ROLLBACK");
        }
    }

    @Test
    void hostsStartingAtOnceConvergeOnOneLayout() throws Exception {
        int hosts = 8;
        CountDownLatch ready = new CountDownLatch(hosts);
        ExecutorService starts = Executors.newFixedThreadPool(hosts);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < hosts; i++) {
                done.add(starts.submit(() -> {
                    try (Connection connection = PostgresServer.connect()) {
                        ready.countDown();
                        ready.await(20, TimeUnit.SECONDS);
                        PostgresSchema.createOrMigrate(connection, schema);
                    }
                    return null;
                }));
            }
            for (Future<?> start : done) {
                start.get(60, TimeUnit.SECONDS);
            }
        } finally {
            starts.shutdownNow();
        }
        try (Connection connection = PostgresServer.connect()) {
            assertThat(names(connection, "SELECT count(*)::text FROM " + schema + ".localqueue_schema"))
                    .containsExactly("1");
        }
    }

    @Test
    void aSchemaHoldingAnotherMessagesTableIsRefusedAndLeftAsItWas() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
            statement.execute("CREATE TABLE " + schema + ".messages (id bigint, body text)");

            assertThatThrownBy(() -> PostgresSchema.createOrMigrate(connection, schema))
                    .isInstanceOf(LocalQueueException.class)
                    .hasMessageContaining("schema " + schema + " is not a localqueue database")
                    .hasMessageContaining("lacks columns").hasMessageContaining("payload");
            assertThat(names(connection, "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                    + schema + "'")).containsExactly("messages");
        }
    }

    @Test
    void aLayoutNewerThanThisVersionIsRefused() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            PostgresSchema.createOrMigrate(connection, schema);
            statement.execute("UPDATE " + schema + ".localqueue_schema SET version = " + (PostgresSchema.VERSION + 1));

            assertThatThrownBy(() -> PostgresSchema.createOrMigrate(connection, schema))
                    .isInstanceOf(LocalQueueException.class).hasMessageContaining("newer than this version's");
        }
    }

    @Test
    void schemaNamesAreCheckedBeforeAnythingIsSent() {
        for (String bad : new String[] {"Mixed", "has-dash", "1starts", "x; DROP SCHEMA public", "", "a".repeat(53)}) {
            assertThatThrownBy(() -> PostgresSchema.requireValidName(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("schema must be a lower-case identifier");
        }
        assertThatThrownBy(() -> PostgresSchema.requireValidName("pg_queues")).hasMessageContaining("'pg_'");
        assertThatThrownBy(() -> PostgresSchema.requireValidName("user")).hasMessageContaining("reserved word")
                .hasMessageContaining("user_queues");
        assertThat(PostgresSchema.requireValidName("users")).as("not a keyword").isEqualTo("users");
        assertThatThrownBy(() -> PostgresSchema.requireValidName(null)).hasMessageContaining("got null");
        assertThat(PostgresSchema.requireValidName("localqueue_2")).isEqualTo("localqueue_2");
        assertThat(PostgresSchema.lockKey("a")).isNotEqualTo(PostgresSchema.lockKey("b"))
                .isEqualTo(PostgresSchema.lockKey("a"));
    }

    @Test
    void theLongestNameTheRuleAllowsIsCreatedAndItsChannelNotifies() throws SQLException {
        String longest = (schema + "_" + "x".repeat(ServerSettings.MAX_SCHEMA_LENGTH)).substring(0,
                ServerSettings.MAX_SCHEMA_LENGTH);
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            PostgresSchema.createOrMigrate(connection, longest);

            statement.execute("LISTEN " + NotifyWatch.channelOf(longest));
            statement.execute("SELECT pg_notify('" + NotifyWatch.channelOf(longest) + "', '')");
            assertThat(connection.unwrap(org.postgresql.PGConnection.class).getNotifications(5_000)).hasSize(1);
        }
    }

    @Test
    void everyKeywordTheServerReservesIsRefused() throws SQLException {
        List<String> keywords;
        try (Connection connection = PostgresServer.connect()) {
            keywords = Transactions.strings(connection, "SELECT word FROM pg_get_keywords() WHERE catcode IN ('R', 'T')");
        }
        assertThat(keywords).isNotEmpty();
        for (String keyword : keywords) {
            assertThatThrownBy(() -> PostgresSchema.requireValidName(keyword)).as(keyword)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static List<String> names(Connection connection, String sql) throws SQLException {
        return Transactions.strings(connection, sql);
    }
}
