package io.localqueue.internal.store.postgresql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells other hosts that this one committed something their waiters may want, after the commit and outside its
 * transaction: one payload-less {@code NOTIFY} on the layout's channel, sent by a thread of its own on a connection
 * it borrows for that one statement. Commits that arrive while a notification is being sent, or within
 * {@link #SPACING_NANOS} of the last one, are folded into the next, so a host sends at most one notification per
 * spacing however fast it commits. Sending outside the transaction matters: PostgreSQL lets only one notifying
 * transaction of the whole server commit at a time, so notifying from every write transaction would line them all
 * up behind each other. A notification that cannot be sent is dropped; the listeners' poll finds the work anyway.
 */
final class NotifySender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(NotifySender.class);

    /** The shortest time between two notifications of one host. */
    static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /** How long closing waits for a last notification to go out. */
    private static final long CLOSE_WAIT_MILLIS = 1_000;

    private final DataSource source;
    private final String channel;
    private final String threadName;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean pending;
    private boolean closed;
    private @Nullable Thread sender;

    /**
     * Creates the sender of one layout; its thread starts with the first commit to announce.
     *
     * @param source lends the connection each notification is sent on
     * @param schema the layout's schema
     */
    NotifySender(DataSource source, String schema) {
        this.source = source;
        this.channel = NotifyWatch.channelOf(schema);
        this.threadName = "localqueue-postgresql-notify-" + schema;
    }

    /** Asks for a notification soon; never waits, and does nothing once closed. */
    void committed() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            pending = true;
            if (sender == null) {
                Thread thread = new Thread(this::run, threadName);
                thread.setDaemon(true);
                sender = thread;
                thread.start();
            }
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Sends what is still pending, then stops the thread. */
    @Override
    public void close() {
        Thread thread;
        lock.lock();
        try {
            closed = true;
            thread = sender;
            changed.signal();
        } finally {
            lock.unlock();
        }
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(CLOSE_WAIT_MILLIS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        long lastSent = System.nanoTime() - SPACING_NANOS;
        while (awaitPending(lastSent)) {
            lastSent = System.nanoTime();
            send();
        }
    }

    /**
     * Waits until a notification is pending and the spacing since the last one has passed, and takes it; returns
     * false once closed with nothing pending.
     */
    private boolean awaitPending(long lastSent) {
        lock.lock();
        try {
            while (true) {
                if (pending) {
                    long early = lastSent + SPACING_NANOS - System.nanoTime();
                    if (early <= 0 || closed) {
                        pending = false;
                        return true;
                    }
                    changed.awaitNanos(early);
                } else if (closed) {
                    return false;
                } else {
                    changed.await();
                }
            }
        } catch (InterruptedException interrupted) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void send() {
        try (Connection connection = source.getConnection();
             PreparedStatement notify = connection.prepareStatement("SELECT pg_notify(?, '')")) {
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true);
            }
            notify.setString(1, channel);
            notify.execute();
        } catch (SQLException | RuntimeException failure) {
            log.debug("The notification on channel {} was not sent; other hosts see the change at their next poll",
                    channel, failure);
        }
    }
}
