package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.StoredCheckpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Ingestion checkpoints on a real PostgreSQL server: incarnations, the compare-and-swap, and its race. */
class CheckpointStatementsTest extends LayoutTestBase {

    @Test
    void aCheckpointIsCreatedAdvancedUnderItsVersionAndDeleted() throws SQLException {
        StoredCheckpoint created = advance(null, "10", 10, 100);

        assertThat(created.generation()).matches("[0-9a-f]{32}");
        assertThat(created.version()).isEqualTo(1);
        assertThat(created.itemsCommitted()).isEqualTo(10);
        assertThat(created.sourceFingerprint()).isEqualTo("file-v1");
        assertThat(advance(null, "10", 10, 100)).as("a second creation").isNull();

        StoredCheckpoint advanced = advance(created, "25", 15, 200);
        assertThat(advanced.cursor()).isEqualTo("25");
        assertThat(advanced.version()).isEqualTo(2);
        assertThat(advanced.itemsCommitted()).isEqualTo(25);
        assertThat(advanced.batchesCommitted()).isEqualTo(2);
        assertThat(advanced.generation()).isEqualTo(created.generation());
        assertThat(advance(created, "30", 5, 300)).as("the stale version").isNull();
        assertThat(read()).isEqualTo(advanced);

        boolean deleted = Transactions.run(connection -> CheckpointStatements.delete(connection, schema, "default",
                "users"));
        assertThat(deleted).isTrue();
        assertThat(read()).isNull();
        assertThat(advance(null, "5", 5, 400).generation()).isNotEqualTo(created.generation());
    }

    @Test
    void ofTwoSwapsFromTheSameVersionOnlyOneMovesTheCheckpoint() throws Exception {
        StoredCheckpoint read = advance(null, "0", 0, 1);
        try (Connection first = PostgresServer.connect(); Connection second = PostgresServer.connect()) {
            first.setAutoCommit(false);
            StoredCheckpoint moved = CheckpointStatements.advance(first, schema, "default", "users", read, "100",
                    "file-v1", 100, 2);
            CompletableFuture<StoredCheckpoint> racing = CompletableFuture.supplyAsync(() -> {
                try {
                    return Transactions.run(second, connection -> CheckpointStatements.advance(connection, schema,
                            "default", "users", read, "200", "file-v1", 200, 3));
                } catch (SQLException failure) {
                    throw new IllegalStateException(failure);
                }
            });
            first.commit();

            assertThat(moved).isNotNull();
            assertThat(racing.get(20, TimeUnit.SECONDS)).as("the swap that waited for the first").isNull();
        }
        assertThat(read().cursor()).isEqualTo("100");
    }

    private @Nullable StoredCheckpoint advance(@Nullable StoredCheckpoint expected, String cursor, long items,
                                               long now) throws SQLException {
        return Transactions.run(connection -> CheckpointStatements.advance(connection, schema, "default", "users",
                expected, cursor, "file-v1", items, now));
    }

    private @Nullable StoredCheckpoint read() throws SQLException {
        return Transactions.run(connection -> CheckpointStatements.read(connection, schema, "default", "users"));
    }
}
