package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueOptions;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A claim under limits on PostgreSQL waits for a claim another transaction holds open and then counts its lease: a
 * count of committed leases followed by {@code SKIP LOCKED} would see a free slot the open claim is taking.
 */
class LimitedClaimLockTest {

    private final String schema = PostgresServer.freshSchema();
    private final LocalQueueDatabase database =
            LocalQueueDatabase.server(PostgresServer.url()).schema(schema).poolSize(3).open();

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void aClaimWaitsForAnOpenClaimOfTheSameLimitedQueueAndCountsItsLease() throws Exception {
        assertTheOpenClaimIsCounted(SimpleQueue.builder(database).name("q").maxConcurrent(1), null);
    }

    @Test
    void aClaimUnderAPerKeyLimitCountsTheOpenClaimsLeaseOfItsKey() throws Exception {
        assertTheOpenClaimIsCounted(SimpleQueue.builder(database).name("q").maxConcurrentPerKey(1), "customer-7");
    }

    private void assertTheOpenClaimIsCounted(SimpleQueue.Builder<Object> builder, String key) throws Exception {
        try (SimpleQueue<Object> queue = builder.build()) {
            EnqueueOptions options = key == null ? EnqueueOptions.defaults()
                    : EnqueueOptions.defaults().concurrencyKey(key);
            long first = queue.put("first", null, options);
            queue.put("second", null, options);
            try (Connection open = PostgresServer.connect(); Statement statement = open.createStatement()) {
                open.setAutoCommit(false);
                statement.execute("SELECT * FROM " + schema + ".queue_controls WHERE queue = 'q' FOR UPDATE");
                statement.executeUpdate("UPDATE " + schema + ".messages SET status = 1, receipt = 'open-claim', "
                        + "lease_until = " + (System.currentTimeMillis() + 60_000) + ", attempts = 1 WHERE id = "
                        + first);

                CompletableFuture<Object> claim = CompletableFuture.supplyAsync(
                        () -> queue.get(Duration.ofMillis(1_500)).data());
                await().atMost(Duration.ofSeconds(10)).until(() -> claim.isDone() || waitsOnALock(schema));
                open.commit();

                assertThatThrownBy(claim::join).as("a claim of the second job while the first is leased")
                        .hasCauseInstanceOf(QueueEmptyException.class);
            }
            assertThat(queue.stats()).isEqualTo(new QueueStats(1, 1, 0, 0));
        }
    }

    /** Tells whether a session waits for a lock on a row of the schema's controls. */
    private static boolean waitsOnALock(String schema) throws Exception {
        try (Connection connection = PostgresServer.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ?")) {
            select.setString(1, "%" + schema + ".queue_controls%");
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1) > 0;
            }
        }
    }
}
