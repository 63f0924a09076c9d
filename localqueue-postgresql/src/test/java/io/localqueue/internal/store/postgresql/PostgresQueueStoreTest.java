package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DurabilityMode;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.WriteOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The assembled PostgreSQL store on a real server: its layout, writes, reads, the caller's transaction, upkeep. */
class PostgresQueueStoreTest {

    private final String schema = PostgresServer.freshSchema();

    @Test
    void openingCreatesTheLayoutAndWritesAndReadsGoThroughTheStore() {
        try (PostgresQueueStore store = new PostgresQueueStore(PostgresServer.database(), schema)) {
            List<Long> ids = store.write(WriteOptions.standard("put", DurabilityMode.RELAXED), () -> { },
                    writes -> writes.enqueue("emails", List.of(new NewJob(bytes("a"), null), new NewJob(bytes("b"),
                            null)), 4, 1, 0).ids());

            assertThat(ids).hasSize(2);
            assertThat(store.stats("emails")).isEqualTo(new QueueStats(2, 0, 0, 0));
            assertThat(store.queueNames()).containsExactly("emails");
            assertThat(store.isFull("emails", 2)).isTrue();
            assertThat(store.probe("emails").earliestDue()).isEqualTo(1);
            assertThat(store.listReady("emails", 10, 0)).hasSize(2);
            assertThat(store.snapshot("emails", java.time.Clock.systemUTC()).stats().ready()).isEqualTo(2);
            assertThat(store.engineVersion()).startsWith("18.");
            assertThat(store.location()).contains("schema " + schema);
        }
    }

    @Test
    void aCallersTransactionCarriesTheTransitionsAndItsCommitDecides() throws SQLException {
        try (PostgresQueueStore store = new PostgresQueueStore(PostgresServer.database(), schema);
             Connection caller = PostgresServer.connect()) {
            caller.setAutoCommit(false);
            store.writeWithin(caller, writes -> writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 4, 1,
                    0));
            assertThat(store.stats("emails").ready()).as("before the caller commits").isZero();
            caller.rollback();
            store.writeWithin(caller, writes -> writes.enqueue("emails", List.of(new NewJob(bytes("b"), null)), 4, 1,
                    0));
            caller.commit();
            assertThat(store.stats("emails").ready()).isEqualTo(1);

            caller.setAutoCommit(true);
            assertThatThrownBy(() -> store.writeWithin(caller, writes -> null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in a transaction");
        }
        try (PostgresQueueStore other = new PostgresQueueStore(PostgresServer.database(), schema + "_other");
             Connection caller = PostgresServer.connect()) {
            caller.setAutoCommit(false);
            try (Statement statement = caller.createStatement()) {
                statement.execute("DROP SCHEMA " + schema + "_other CASCADE");
            }
            assertThatThrownBy(() -> other.writeWithin(caller, writes -> null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not schema " + schema
                            + "_other");
            caller.rollback();
        }
    }

    @Test
    void theIntegrityCheckFindsRowsInNoReachableStateAndSaysWhetherItCheckedTheIndexes() throws SQLException {
        try (PostgresQueueStore store = new PostgresQueueStore(PostgresServer.database(), schema)) {
            store.write(WriteOptions.standard("put", DurabilityMode.RELAXED), () -> { }, writes -> writes.enqueue(
                    "emails", List.of(new NewJob(bytes("a"), null)), 4, 1, 0));
            assertThat(store.checkIntegrity(IntegrityCheckMode.QUICK, 10).messages()).containsExactly("ok");
            execute("CREATE EXTENSION IF NOT EXISTS amcheck");
            try {
                IntegrityCheckResult checked = store.checkIntegrity(IntegrityCheckMode.FULL, 10);
                assertThat(checked.ok()).isTrue();
                assertThat(checked.messages()).as("every index checked by amcheck").containsExactly("ok");
            } finally {
                execute("DROP EXTENSION IF EXISTS amcheck");
            }
            assertThat(store.checkIntegrity(IntegrityCheckMode.FULL, 10).messages()).containsExactly("ok",
                    IntegrityStatements.NO_AMCHECK);

            execute("UPDATE " + schema + ".messages SET status = 1");
            IntegrityCheckResult damaged = store.checkIntegrity(IntegrityCheckMode.QUICK, 10);

            assertThat(damaged.ok()).isFalse();
            assertThat(damaged.messages()).singleElement().asString().endsWith(": leased without a receipt or expiry");
        }
    }

    @Test
    void upkeepIsPostgresqlsOwnAndAClosedStoreRefusesWork() {
        PostgresQueueStore store = new PostgresQueueStore(PostgresServer.database(), schema);
        store.vacuum(() -> { });
        assertThatThrownBy(() -> store.backup(Path.of("copy.db"))).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("pg_dump --schema=" + schema);
        store.close();

        assertThatThrownBy(() -> store.stats("emails")).isInstanceOf(QueueClosedException.class);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
