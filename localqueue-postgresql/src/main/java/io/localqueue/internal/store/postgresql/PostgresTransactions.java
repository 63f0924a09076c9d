package io.localqueue.internal.store.postgresql;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.store.WriteTransactions;
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
 * How the PostgreSQL store runs one write transaction: through Spring's transaction manager
 * ({@link WriteTransactions}) on a connection of its data source, with the commit's durability
 * ({@link DurabilityMode#RELAXED} commits with {@code synchronous_commit = off}, which keeps the database
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
     * {@link #DURABLE_SETTINGS} on a connection of the store's own pool, whose session turned {@code synchronous_commit}
     * off ({@link #SESSION_SETTINGS}): the commit waits for the WAL flush as the server, database or role sets it,
     * since {@code reset_val} is the value before that {@code SET}.
     */
    private static final String DURABLE_OVER_SESSION_SETTINGS = "SELECT set_config('lock_timeout', ?, true), "
            + "set_config('synchronous_commit', CASE reset_val WHEN 'off' THEN 'on' ELSE reset_val END, true) "
            + "FROM pg_settings WHERE name = 'synchronous_commit'";

    /**
     * The lock wait of the sessions of the store's own pool: one second short of a standard write's budget, so that a
     * transaction started within the first second of its write needs no setting of its own and still never waits
     * past its budget.
     */
    static final long SESSION_LOCK_TIMEOUT_MILLIS = TimeUnit.NANOSECONDS.toMillis(WriteOptions.WRITE_BUDGET_NANOS) - 1_000;

    /**
     * What each connection of the store's own pool runs once when it opens, so that a {@link DurabilityMode#RELAXED}
     * transaction with the standard budget needs no settings round trip: the lock wait
     * ({@link #SESSION_LOCK_TIMEOUT_MILLIS}) and a commit that does not wait for the WAL flush.
     */
    static final String SESSION_SETTINGS = "SET lock_timeout = " + SESSION_LOCK_TIMEOUT_MILLIS
            + "; SET synchronous_commit = off";

    /**
     * How many times one write, or one read, runs again on another connection after the one it had was found lost
     * before anything was committed: a pool may hold several connections whose backends the server has just ended.
     */
    static final int LOST_CONNECTION_RETRIES = 10;

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final WriteTransactions transactions;
    private final boolean sessionSettings;
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
        this(dataSource, false, schema, wokeWaiters, () -> null);
    }

    /**
     * Creates the transactions of one layout.
     *
     * @param dataSource lends each transaction its connection
     * @param sessionSettings whether every connection of {@code dataSource} ran {@link #SESSION_SETTINGS} (the
     *                        store's own pool); a caller's pool is left as it is, each transaction setting its own
     * @param schema the layout's schema
     * @param wokeWaiters runs after the commit of a transaction that gave waiters work or room
     * @param holder this host's holder name for the receipts of claims, asked at each claim; null names none
     */
    PostgresTransactions(DataSource dataSource, boolean sessionSettings, String schema, Runnable wokeWaiters,
                         Supplier<@Nullable String> holder) {
        this.transactions = new WriteTransactions(dataSource);
        this.sessionSettings = sessionSettings;
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
        PostgresWrites[] bound = new PostgresWrites[1];
        R result;
        try {
            String sql = settings(options.durability(), remainingNanos);
            PostgresWrites.Work<?> set = connection -> {
                try (PreparedStatement settings = connection.prepareStatement(sql)) {
                    settings.setString(1, Long.toString(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos))));
                    return settings.execute();
                }
            };
            boolean lockWaitOnly = sessionSettings && options.durability() == DurabilityMode.RELAXED;
            result = transactions.run(connection -> {
                if (sql != null && !lockWaitOnly) {
                    set.run(connection);
                }
                bound[0] = new PostgresWrites(connection, schema, holder, sql != null && lockWaitOnly ? set : null);
                return work.run(bound[0]);
            });
        } catch (WriteTransactions.Failure failure) {
            SQLException sql = failure.sql();
            switch (failure.step()) {
                case BEGIN:
                    throw PostgresErrors.unavailable(what, sql);
                case COMMIT:
                    throw PostgresErrors.connectionLost(sql) ? PostgresErrors.lostInCommit(what, sql)
                            : PostgresErrors.wrap(what, sql);
                default:
                    throw lostOr(PostgresErrors.wrap(what, sql));
            }
        } catch (RuntimeException failure) {
            throw lostOr(failure);
        }
        if (bound[0] != null && bound[0].wakesWaiters()) {
            wokeWaiters.run();
        }
        return result;
    }

    /**
     * The statement that gives a transaction its settings, or null when its connection's session has them already:
     * a {@link DurabilityMode#RELAXED} transaction on the store's own pool with at least the session's lock wait left.
     * A shorter wait of a {@link DurabilityMode#RELAXED} transaction on that pool is the only setting its session
     * lacks, so it is set before the first statement that may wait for a lock ({@link PostgresWrites}); a claim
     * that takes only rows it finds unlocked never sends it.
     */
    private @Nullable String settings(DurabilityMode durability, long remainingNanos) {
        if (!sessionSettings) {
            return durability == DurabilityMode.RELAXED ? RELAXED_SETTINGS : DURABLE_SETTINGS;
        }
        if (durability == DurabilityMode.DURABLE) {
            return DURABLE_OVER_SESSION_SETTINGS;
        }
        return TimeUnit.NANOSECONDS.toMillis(remainingNanos) >= SESSION_LOCK_TIMEOUT_MILLIS ? null : RELAXED_SETTINGS;
    }

    /** A failure before the commit, as one to run again when it was the loss of the connection. */
    private static RuntimeException lostOr(RuntimeException reported) {
        return PostgresErrors.connectionLost(reported) ? new LostConnection(reported) : reported;
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
