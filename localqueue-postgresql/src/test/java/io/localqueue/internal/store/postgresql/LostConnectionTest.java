package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.WriteOptions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Connections lost under a write or a read, made to fail on cue: lost before the commit, the work runs again on
 * another connection; lost while committing, it is reported as of unknown outcome; a data source that gives no
 * connection is reported as such, whatever SQLSTATE it sets.
 */
class LostConnectionTest extends LayoutTestBase {

    private static final Runnable OPEN = () -> { };
    private static final WriteOptions PUT = WriteOptions.standard("put", DurabilityMode.RELAXED);

    @Test
    void aWriteWhoseConnectionsWereLostRunsAgainOnTheNextOne() throws SQLException {
        Connections source = new Connections(false);
        source.loseNext(3);
        PostgresTransactions transactions = new PostgresTransactions(source, schema, () -> { });

        List<Long> ids = transactions.write(PUT, OPEN, writes -> writes.enqueue("emails", List.of(job("a")), 4, 1, 0)
                .ids());

        assertThat(ids).hasSize(1);
        assertThat(source.handedOut()).as("three lost connections, then one that works").isEqualTo(4);
        assertThat(count()).isEqualTo("1");
    }

    @Test
    void aWriteStopsRunningAgainAfterTenLostConnectionsAndReportsTheLoss() throws SQLException {
        Connections source = new Connections(false);
        source.loseNext(Integer.MAX_VALUE);
        PostgresTransactions transactions = new PostgresTransactions(source, schema, () -> { });

        assertThatThrownBy(() -> transactions.write(PUT, OPEN, writes -> writes.enqueue("emails", List.of(job("a")),
                4, 1, 0))).isInstanceOf(LocalQueueException.class).isNotInstanceOf(DatabaseBusyException.class)
                .hasMessage("'put' in schema " + schema + " failed (SQLSTATE 57P01): terminating connection due to "
                        + "administrator command");
        assertThat(source.handedOut()).isEqualTo(1 + PostgresTransactions.LOST_CONNECTION_RETRIES);
        assertThat(count()).isEqualTo("0");
    }

    @Test
    void aConnectionLostWhileCommittingIsReportedAsOfUnknownOutcomeAndNotRunAgain() throws SQLException {
        Connections source = new Connections(true);
        PostgresTransactions transactions = new PostgresTransactions(source, schema, () -> { });

        assertThatThrownBy(() -> transactions.write(PUT, OPEN, writes -> writes.enqueue("emails", List.of(job("a")),
                4, 1, 0))).isInstanceOf(LocalQueueException.class)
                .hasMessage("the connection to the database was lost while committing 'put' in schema " + schema
                        + ", so whether it committed is unknown (SQLSTATE 08006): An I/O error occurred while sending "
                        + "to the backend.");
        assertThat(source.handedOut()).as("no second attempt, which could put the job twice").isEqualTo(1);
    }

    @Test
    void aReadWhoseConnectionWasLostRunsAgainOnTheNextOne() {
        Connections source = new Connections(false);
        try (PostgresQueueStore store = new PostgresQueueStore(source, schema)) {
            int opening = source.handedOut();
            source.loseNext(2);

            assertThat(store.queueNames()).isEmpty();
            assertThat(source.handedOut() - opening).as("two lost connections, then one that works").isEqualTo(3);
        }
    }

    @Test
    void aPoolWithoutAFreeConnectionIsReportedAsSuchEvenWithoutSqlState() {
        DataSource exhausted = dataSource(() -> {
            throw new SQLTransientConnectionException(
                    "app-pool - Connection is not available, request timed out after 1000ms (total=3, active=3, "
                            + "idle=0, waiting=0)");
        });
        PostgresTransactions transactions = new PostgresTransactions(exhausted, schema, () -> { });

        assertThatThrownBy(() -> transactions.write(PUT, OPEN, writes -> writes.enqueue("emails", List.of(job("a")),
                4, 1, 0))).isInstanceOf(LocalQueueException.class)
                .hasMessage("'put' in schema " + schema + " failed: no connection of the data source became free "
                        + "before its timeout; each one was in use: app-pool - Connection is not available, request "
                        + "timed out after 1000ms (total=3, active=3, idle=0, waiting=0)");
    }

    @Test
    void aServerOutOfReachIsNamedWithTheDriversOwnWordsBeneathThePoolsTimeout() {
        SQLException refused = new SQLException("Connection to localhost:5999 refused.", "08001");
        DataSource unreachable = dataSource(() -> {
            throw new SQLTransientConnectionException("app-pool - Connection is not available, request timed out "
                    + "after 1000ms (total=0, active=0, idle=0, waiting=0)", "08001", refused);
        });
        PostgresTransactions transactions = new PostgresTransactions(unreachable, schema, () -> { });

        assertThatThrownBy(() -> transactions.write(PUT, OPEN, writes -> writes.enqueue("emails", List.of(job("a")),
                4, 1, 0))).isInstanceOf(LocalQueueException.class)
                .hasMessage("'put' in schema " + schema + " failed: the database server cannot be reached (SQLSTATE "
                        + "08001): Connection to localhost:5999 refused. (app-pool - Connection is not available, "
                        + "request timed out after 1000ms (total=0, active=0, idle=0, waiting=0))");
    }

    /** What a data source's getConnection does. */
    @FunctionalInterface
    private interface Opening {
        Connection open() throws SQLException;
    }

    private static DataSource dataSource(Opening opening) {
        return (DataSource) Proxy.newProxyInstance(LostConnectionTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("getConnection")) {
                        return opening.open();
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /**
     * Connections to the test server, counted as they are handed out: the next ones {@link #loseNext} says fail their
     * statements as those of a terminated backend do, and with {@code commitLost} every commit fails as a broken link
     * does, without reaching the server.
     */
    private static final class Connections implements DataSource {
        private final boolean commitLost;
        private final AtomicInteger handedOut = new AtomicInteger();
        private final AtomicInteger lostToCome = new AtomicInteger();

        Connections(boolean commitLost) {
            this.commitLost = commitLost;
        }

        void loseNext(int connections) {
            lostToCome.set(connections);
        }

        int handedOut() {
            return handedOut.get();
        }

        @Override
        public Connection getConnection() throws SQLException {
            handedOut.incrementAndGet();
            boolean gone = lostToCome.getAndUpdate(left -> Math.max(0, left - 1)) > 0;
            Connection real = PostgresServer.database().getConnection();
            return (Connection) Proxy.newProxyInstance(LostConnectionTest.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, arguments) -> {
                        String name = method.getName();
                        if (gone && (name.equals("createStatement") || name.equals("prepareStatement"))) {
                            throw new SQLException("terminating connection due to administrator command", "57P01");
                        }
                        if (commitLost && name.equals("commit")) {
                            throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
                        }
                        try {
                            return method.invoke(real, arguments);
                        } catch (InvocationTargetException failure) {
                            throw failure.getCause();
                        }
                    });
        }

        @Override
        public Connection getConnection(String username, String password) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.io.PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(java.io.PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public java.util.logging.Logger getParentLogger() {
            return java.util.logging.Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }

    private static NewJob job(String payload) {
        return new NewJob(payload.getBytes(StandardCharsets.UTF_8), null);
    }

    private String count() throws SQLException {
        return query("SELECT count(*) FROM " + schema + ".messages").get(0);
    }
}
