package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.ServerSettings;
import io.localqueue.internal.store.WriteOptions;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Write transactions on a real PostgreSQL server: commit, rollback, the settings of a transaction, and lock waits
 * bounded by the budget.
 */
class PostgresTransactionsTest extends LayoutTestBase {

    private static final Runnable OPEN = () -> { };

    @Test
    void aTransactionCommitsItsTransitionsOrNoneOfThem() {
        PostgresTransactions transactions = new PostgresTransactions(PostgresServer.database(), schema, () -> { });

        Long id = transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                writes -> writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 4, 1, 0).ids().get(0));
        IllegalStateException refused = new IllegalStateException("the caller changed its mind");
        assertThatThrownBy(() -> transactions.write(WriteOptions.standard("put", DurabilityMode.DURABLE), OPEN,
                writes -> {
                    writes.enqueue("emails", List.of(new NewJob(bytes("b"), null)), 4, 1, 0);
                    throw refused;
                })).isSameAs(refused);

        assertThat(id).isPositive();
        assertThat(count()).isEqualTo("1");
    }

    @Test
    void aWriteNeverJoinsATransactionTheCallersThreadHoldsOnTheSameDataSource() {
        DataSource source = PostgresServer.database();
        PostgresTransactions transactions = new PostgresTransactions(source, schema, () -> { });
        TransactionTemplate callers = new TransactionTemplate(new DataSourceTransactionManager(source));
        List<String> seen = new ArrayList<>();

        callers.executeWithoutResult(status -> {
            Connection callersConnection = DataSourceUtils.getConnection(source);
            transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN, writes -> {
                seen.add("own connection " + (DataSourceUtils.getConnection(source) != callersConnection));
                return writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 4, 1, 0);
            });
            seen.add("caller's connection bound again " + (DataSourceUtils.getConnection(source) == callersConnection));
            status.setRollbackOnly();
        });

        assertThat(seen).containsExactly("own connection true", "caller's connection bound again true");
        assertThat(count()).as("committed on its own, whatever the caller's transaction did").isEqualTo("1");
    }

    @Test
    void aTransactionRunsWithItsLockBudgetAndDurabilityAndTheSessionKeepsItsOwnSettings() throws Exception {
        AtomicReference<Connection> handedOut = new AtomicReference<>();
        DataSource recording = recording(PostgresServer.database(), handedOut);
        PostgresTransactions transactions = new PostgresTransactions(recording, schema, () -> { });

        List<String> relaxed = transactions.write(WriteOptions.within("put", DurabilityMode.RELAXED,
                TimeUnit.SECONDS.toNanos(20)), OPEN, writes -> settings(handedOut.get()));
        List<String> durable = transactions.write(WriteOptions.within("put", DurabilityMode.DURABLE,
                TimeUnit.SECONDS.toNanos(20)), OPEN, writes -> settings(handedOut.get()));

        assertThat(relaxed.get(0)).matches("(19|20)\\d{3}ms");
        assertThat(relaxed.get(1)).isEqualTo("off");
        assertThat(durable.get(0)).matches("(19|20)\\d{3}ms");
        assertThat(serverSetting()).as("the embedded server's own default").isEqualTo("off");
        assertThat(durable.get(1)).as("DURABLE waits for the flush whatever the server's default").isEqualTo("on");
        PostgresTransactions standby = new PostgresTransactions(withSession(recording,
                "SET synchronous_commit = remote_apply"), schema, () -> { });
        assertThat(standby.write(WriteOptions.within("put", DurabilityMode.DURABLE, TimeUnit.SECONDS.toNanos(20)),
                OPEN, writes -> settings(handedOut.get())).get(1)).as("a stronger setting is kept")
                .isEqualTo("remote_apply");
        try (Connection plain = PostgresServer.connect()) {
            assertThat(settings(plain)).as("the settings end with the transaction")
                    .containsExactly("0", serverSetting());
        }
    }

    @Test
    void theStoresOwnPoolCarriesTheCommonSettingsInItsSessionsAndOtherWritesSetTheirOwn() throws Exception {
        AtomicReference<Connection> handedOut = new AtomicReference<>();
        try (HikariDataSource pool = new HikariDataSource(PostgresStoreProvider.poolConfig(new ServerSettings(
                PostgresServer.url(), "postgres", null, schema, 3)))) {
            DataSource recording = recording(pool, handedOut);
            PostgresTransactions transactions = new PostgresTransactions(recording, true, schema, () -> { },
                    () -> null);

            List<String> common = transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                    writes -> settings(handedOut.get()));
            List<String> shorter = transactions.write(WriteOptions.within("put", DurabilityMode.RELAXED,
                    TimeUnit.SECONDS.toNanos(20)), OPEN, writes -> ((PostgresWrites) writes).run(PostgresTransactionsTest::settings));
            transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                    writes -> writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 4, 1, 0));
            List<String> nowaitClaim = transactions.write(WriteOptions.nowait("claim", DurabilityMode.RELAXED), OPEN,
                    writes -> {
                        assertThat(writes.claim(new ClaimRequest("emails", 2, 60_000, 1, true, 0)).rows()).hasSize(1);
                        return settings(handedOut.get());
                    });
            List<String> emptyClaim = transactions.write(WriteOptions.nowait("claim", DurabilityMode.RELAXED), OPEN,
                    writes -> {
                        assertThat(writes.claim(new ClaimRequest("emails", 2, 60_000, 1, true, 0)).rows()).isEmpty();
                        return settings(handedOut.get());
                    });
            List<String> durable = transactions.write(WriteOptions.standard("put", DurabilityMode.DURABLE), OPEN,
                    writes -> settings(handedOut.get()));

            assertThat(common).as("the session's own settings").containsExactly("29s", "off");
            assertThat(shorter.get(0)).matches("(19|20)\\d{3}ms");
            assertThat(shorter.get(1)).isEqualTo("off");
            assertThat(nowaitClaim).as("a claim that took an unlocked row waited for no lock, so set no wait")
                    .containsExactly("29s", "off");
            assertThat(emptyClaim).as("one that went on to the queue's controls set its wait before reading them")
                    .containsExactly("1ms", "off");
            assertThat(durable.get(0)).matches("(29|30)\\d{3}ms");
            assertThat(durable.get(1)).as("DURABLE waits for the flush over the session's off").isEqualTo("on");
            try (Connection session = pool.getConnection()) {
                assertThat(settings(session)).as("the session's settings again once each transaction ended")
                        .containsExactly("29s", "off");
            }
        }
    }

    @Test
    void aLockHeldPastTheBudgetIsReportedBusyAndOneReleasedInTimeIsWaitedFor() throws Exception {
        PostgresTransactions transactions = new PostgresTransactions(PostgresServer.database(), schema, () -> { });
        try (Connection holder = PostgresServer.connect(); Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("SELECT pg_advisory_xact_lock(" + PostgresSchema.lockKey(schema + "/queue:emails")
                    + ")");

            assertThatThrownBy(() -> transactions.write(WriteOptions.within("put", DurabilityMode.RELAXED,
                    TimeUnit.MILLISECONDS.toNanos(300)), OPEN, writes -> writes.enqueue("emails",
                    List.of(new NewJob(bytes("a"), null)), 4, 1, 10))).isInstanceOf(DatabaseBusyException.class)
                    .hasMessageContaining("kept 'put' in schema " + schema + " from committing (SQLSTATE 55P03");

            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<List<Long>> waiting = CompletableFuture.supplyAsync(() -> {
                started.countDown();
                return transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                        writes -> writes.enqueue("emails", List.of(new NewJob(bytes("b"), null)), 4, 1, 10).ids());
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            holder.commit();
            assertThat(waiting.get(20, TimeUnit.SECONDS)).hasSize(1);
        }
        assertThat(count()).isEqualTo("1");
    }

    @Test
    void aCommitThatGivesWaitersWorkIsAnnouncedAfterItAndOnlyThen() {
        List<String> countsWhenAnnounced = new ArrayList<>();
        PostgresTransactions transactions = new PostgresTransactions(PostgresServer.database(), schema,
                () -> countsWhenAnnounced.add(count()));

        transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                writes -> writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 4, 1, 0));
        transactions.write(WriteOptions.standard("claim", DurabilityMode.RELAXED), OPEN,
                writes -> writes.claim(new ClaimRequest("other", 1, 1_000, 10, true, 0)));
        assertThatThrownBy(() -> transactions.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                writes -> {
                    writes.enqueue("emails", List.of(new NewJob(bytes("b"), null)), 4, 1, 0);
                    throw new IllegalStateException("rolled back");
                })).isInstanceOf(IllegalStateException.class);

        assertThat(countsWhenAnnounced).as("once, for the put, with its row already visible to others")
                .containsExactly("1");
    }

    @Test
    void theStoresCommitsWakeAnotherHostsWatchAtOnce() throws Exception {
        try (Watching watching = new Watching(schema);
             PostgresQueueStore store = new PostgresQueueStore(PostgresServer.database(), schema)) {
            assertThat(watching.woke(1, 10_000)).isTrue();
            watching.forget();

            store.write(WriteOptions.standard("put", DurabilityMode.RELAXED), OPEN,
                    writes -> writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 4, 1, 0));

            assertThat(watching.woke(1, NotifyWatch.POLL_MILLIS / 2)).isTrue();
        }
    }

    /** A data source whose connections run {@code sql} for their session before they are handed out. */
    private static DataSource withSession(DataSource source, String sql) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    Object result = method.invoke(source, arguments);
                    if (result instanceof Connection connection) {
                        try (Statement statement = connection.createStatement()) {
                            statement.execute(sql);
                        }
                    }
                    return result;
                });
    }

    /** A data source that hands out {@code source}'s connections and keeps the last one in {@code handedOut}. */
    private static DataSource recording(DataSource source, AtomicReference<Connection> handedOut) {
        return (DataSource) Proxy.newProxyInstance(PostgresTransactionsTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    Object result = method.invoke(source, arguments);
                    if (result instanceof Connection connection) {
                        handedOut.set(connection);
                    }
                    return result;
                });
    }

    /** The lock_timeout and synchronous_commit a connection runs with. */
    private static List<String> settings(Connection connection) {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT current_setting('lock_timeout'), current_setting('synchronous_commit')")) {
            rows.next();
            return List.of(rows.getString(1), rows.getString(2));
        } catch (SQLException failure) {
            throw new IllegalStateException(failure);
        }
    }

    private static String serverSetting() throws SQLException {
        return query("SELECT setting FROM pg_settings WHERE name = 'synchronous_commit'").get(0);
    }

    private String count() {
        try {
            return query("SELECT count(*)::text FROM " + schema + ".messages").get(0);
        } catch (SQLException failure) {
            throw new IllegalStateException(failure);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
