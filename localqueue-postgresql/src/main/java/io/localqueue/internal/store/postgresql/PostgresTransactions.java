package io.localqueue.internal.store.postgresql;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * How the PostgreSQL store runs one write transaction: on a connection of its data source, with the commit's
 * durability ({@link DurabilityMode#RELAXED} commits with {@code synchronous_commit = off}, which keeps the database
 * consistent but may lose the last commits of a server crash; {@link DurabilityMode#DURABLE} waits for the WAL
 * flush), and waits for locks bounded by the caller's budget ({@code lock_timeout}). A transaction that loses a
 * serialization conflict, a deadlock or its lock wait is rolled back and run again from the start while the budget
 * lasts, then reported as {@link DatabaseBusyException}. A transaction whose connection turns out lost before its
 * commit was sent (a backend ended by {@code pg_terminate_backend} or a restart, which a pool may hand out before it
 * notices) is run again at once on another connection, up to {@value #LOST_CONNECTION_RETRIES} times, since the
 * server rolled it back; one lost while committing is reported as of unknown outcome. Any other failure rolls back and
 * reaches the caller unchanged. Once a transaction that gave waiters work or room has committed, other hosts are told
 * ({@link NotifySender}).
 */
final class PostgresTransactions {

    /** SQLSTATEs after which running the transaction again can succeed: serialization failure, deadlock, lock wait. */
    private static final Set<String> RETRYABLE = Set.of("40001", "40P01", "55P03");

    /**
     * The transaction's settings in one statement, so that they cost one round trip however many there are: the lock
     * wait in milliseconds, and for {@link DurabilityMode#RELAXED} a commit that does not wait for the WAL flush. Both
     * hold until the transaction ends, as {@code SET LOCAL} would; the text never changes, so the driver prepares it
     * once per connection.
     */
    private static final String RELAXED_SETTINGS =
            "SELECT set_config('lock_timeout', ?, true), set_config('synchronous_commit', 'off', true)";

    /**
     * {@link #RELAXED_SETTINGS} for {@link DurabilityMode#DURABLE}: a commit that waits for the WAL flush even where
     * the server or role turned {@code synchronous_commit} off, and keeps a stronger setting (waiting for standbys).
     */
    private static final String DURABLE_SETTINGS = "SELECT set_config('lock_timeout', ?, true), "
            + "set_config('synchronous_commit', CASE current_setting('synchronous_commit') WHEN 'off' THEN 'on' "
            + "ELSE current_setting('synchronous_commit') END, true)";

    /**
     * How many times one write, or one read, runs again on another connection after the one it had was found lost
     * before anything was committed: a pool may hold several connections whose backends the server has just ended.
     */
    static final int LOST_CONNECTION_RETRIES = 10;

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final DataSource dataSource;
    private final String schema;
    private final Runnable wokeWaiters;
    private final Supplier<@Nullable String> holder;

    /**
     * Creates the transactions of one layout, whose claims name no holder.
     *
     * @param dataSource lends each transaction its connection
     * @param schema the layout's schema
     * @param wokeWaiters runs after the commit of a transaction that gave waiters work or room
     */
    PostgresTransactions(DataSource dataSource, String schema, Runnable wokeWaiters) {
        this(dataSource, schema, wokeWaiters, () -> null);
    }

    /**
     * Creates the transactions of one layout.
     *
     * @param dataSource lends each transaction its connection
     * @param schema the layout's schema
     * @param wokeWaiters runs after the commit of a transaction that gave waiters work or room
     * @param holder this host's holder name for the receipts of claims, asked at each claim; null names none
     */
    PostgresTransactions(DataSource dataSource, String schema, Runnable wokeWaiters,
                         Supplier<@Nullable String> holder) {
        this.dataSource = dataSource;
        this.schema = PostgresSchema.requireValidName(schema);
        this.wokeWaiters = wokeWaiters;
        this.holder = holder;
    }

    <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work) {
        long started = System.nanoTime();
        long deadline = started + options.retryBudgetNanos();
        long pause = FIRST_PAUSE_NANOS;
        int lostConnections = 0;
        while (true) {
            ensureOpen.run();
            try {
                return attempt(options, Math.max(0, deadline - System.nanoTime()), work);
            } catch (LostConnection lost) {
                if (++lostConnections > LOST_CONNECTION_RETRIES) {
                    throw lost.reported;
                }
            } catch (RuntimeException failure) {
                SQLException retryable = retryable(failure);
                if (retryable == null) {
                    throw failure;
                }
                if (System.nanoTime() + pause - deadline >= 0) {
                    throw new DatabaseBusyException("PostgreSQL kept '" + options.transaction() + "' in schema "
                            + schema + " from committing (SQLSTATE " + retryable.getSQLState() + ": "
                            + retryable.getMessage() + ")", Duration.ofNanos(System.nanoTime() - started), failure);
                }
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
            }
        }
    }

    private <R> R attempt(WriteOptions options, long remainingNanos, StoreWork<R> work) {
        String what = "'" + options.transaction() + "' in schema " + schema;
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException failure) {
            throw PostgresErrors.unavailable(what, failure);
        }
        boolean committing = false;
        try {
            connection.setAutoCommit(false);
            try (PreparedStatement settings = connection.prepareStatement(
                    options.durability() == DurabilityMode.RELAXED ? RELAXED_SETTINGS : DURABLE_SETTINGS)) {
                settings.setString(1, Long.toString(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos))));
                settings.execute();
            }
            PostgresWrites writes = new PostgresWrites(connection, schema, holder);
            R result = work.run(writes);
            committing = true;
            connection.commit();
            if (writes.wakesWaiters()) {
                wokeWaiters.run();
            }
            return result;
        } catch (Error failure) {
            rollBack(connection, failure);
            throw failure;
        } catch (SQLException | RuntimeException failure) {
            rollBack(connection, failure);
            RuntimeException reported;
            if (failure instanceof SQLException sql) {
                reported = committing && PostgresErrors.connectionLost(sql) ? PostgresErrors.lostInCommit(what, sql)
                        : PostgresErrors.wrap(what, sql);
            } else {
                reported = (RuntimeException) failure;
            }
            if (!committing && PostgresErrors.connectionLost(failure)) {
                throw new LostConnection(reported);
            }
            throw reported;
        } finally {
            close(connection);
        }
    }

    /** Hands the connection back; a pool that cannot take it back has done with it either way. */
    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // the transaction ended before; a broken connection is the pool's to drop
        }
    }

    private static void rollBack(Connection connection, Throwable failure) {
        try {
            connection.rollback();
        } catch (SQLException alsoFailed) {
            failure.addSuppressed(alsoFailed);
        }
    }

    /** The retryable database failure behind a transaction's failure, or null when it is of another kind. */
    private static @Nullable SQLException retryable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && RETRYABLE.contains(sql.getSQLState())) {
                return sql;
            }
        }
        return null;
    }

    /** A transaction that failed because its connection was lost before its commit, so it can run again. */
    private static final class LostConnection extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final RuntimeException reported;

        LostConnection(RuntimeException reported) {
            super(reported.getMessage(), reported, false, false);
            this.reported = reported;
        }
    }
}
