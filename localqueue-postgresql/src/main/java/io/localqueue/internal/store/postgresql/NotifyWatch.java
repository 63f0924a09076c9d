package io.localqueue.internal.store.postgresql;

import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.wakeup.ChangeWatch;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Notices other hosts' commits to a PostgreSQL layout: {@code LISTEN} on the layout's channel, on a connection of its
 * own, where every write transaction that can give a waiter work or room sends one payload-less {@code NOTIFY}
 * (PostgreSQL folds a transaction's identical notifications into one, delivered at its commit). It also wakes the
 * waiters every {@link #POLL_MILLIS} ms whatever it heard, so that waiters still see other hosts' work where
 * notifications do not arrive: behind a pooler in transaction mode, which drops a session's {@code LISTEN}.
 */
final class NotifyWatch implements ChangeWatch {

    /** How often the waiters are woken when no notification comes. */
    static final long POLL_MILLIS = 250;

    /** How long one wait for notifications lasts, so that the watch sees soon that it is no longer wanted. */
    private static final int LISTEN_MILLIS = 50;

    private final DataSource source;
    private final String channel;
    private @Nullable Connection connection;

    /**
     * Creates the watch of one layout.
     *
     * @param source opens the watch's own connection
     * @param schema the layout's schema
     */
    NotifyWatch(DataSource source, String schema) {
        this.source = source;
        this.channel = channelOf(schema);
    }

    /** The notification channel of a layout. */
    static String channelOf(String schema) {
        return "localqueue_" + PostgresSchema.requireValidName(schema);
    }

    @Override
    public void watch(BooleanSupplier wanted, Runnable changed) throws InterruptedException {
        try {
            PGConnection listening = listen();
            changed.run();
            long nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS);
            while (wanted.getAsBoolean()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("the watch of channel " + channel + " was interrupted");
                }
                PGNotification[] heard = listening.getNotifications(LISTEN_MILLIS);
                if ((heard != null && heard.length > 0) || System.nanoTime() - nextPoll >= 0) {
                    nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS);
                    changed.run();
                }
            }
        } catch (SQLException failure) {
            discardConnection();
            throw new LocalQueueException("listening on channel " + channel + " failed: " + failure.getMessage(),
                    failure);
        }
    }

    private PGConnection listen() throws SQLException {
        Connection open = connection;
        if (open == null || open.isClosed()) {
            open = source.getConnection();
            open.setAutoCommit(true);
            try (Statement statement = open.createStatement()) {
                statement.execute("LISTEN " + channel);
            }
            connection = open;
        }
        return open.unwrap(PGConnection.class);
    }

    @Override
    public void close() {
        closeConnection();
    }

    /**
     * Drops the connection after a failure. The notifications are read on the driver's own connection, past the
     * pool's wrapper, so a HikariCP pool never saw the failure: handed back, a dead connection would go to the next
     * borrower that used one within the last half second, which Hikari does not check. It is evicted instead.
     */
    private void discardConnection() {
        Connection open = connection;
        if (open != null) {
            try {
                if (source.isWrapperFor(HikariDataSource.class)) {
                    connection = null;
                    source.unwrap(HikariDataSource.class).evictConnection(open);
                    return;
                }
            } catch (SQLException | RuntimeException notAPool) {
                // closed below, as by any other pool
            }
        }
        closeConnection();
    }

    private void closeConnection() {
        Connection open = connection;
        connection = null;
        if (open != null) {
            try {
                open.close();
            } catch (SQLException ignored) {
                // the connection is gone either way
            }
        }
    }
}
