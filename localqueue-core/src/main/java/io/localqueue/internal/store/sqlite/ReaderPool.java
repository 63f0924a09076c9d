package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The read connections of one file: a fixed handful of sessions, opened as they are first needed and lent one
 * thread at a time. A general-purpose pool would hide when a physical connection closes, and each session's held
 * statements must close with it; a few connections to a local file need no validation, eviction or resizing. A
 * session that met a SQLite failure is closed rather than lent again, so a transient fault costs one read.
 */
final class ReaderPool implements AutoCloseable {

    private static final long BORROW_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How often a borrower waiting for a free session looks whether a discarded one left room to open another. */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final SqliteConnector connector;
    private final int size;
    private final BlockingQueue<Session> idle;
    private final List<Session> all = new ArrayList<>();
    private boolean closed;

    /**
     * Creates the pool; no connection is opened yet.
     *
     * @param connector opens the sessions
     * @param size how many sessions at most
     */
    public ReaderPool(SqliteConnector connector, int size) {
        this.connector = connector;
        this.size = size;
        this.idle = new ArrayBlockingQueue<>(size);
    }

    /**
     * Lends a session to {@code work}, outside any transaction, and takes it back afterwards.
     *
     * @param work what to do with it
     * @param <R> the result type
     * @return what {@code work} returned
     * @throws SQLException when SQLite fails
     * @throws LocalQueueException when the pool is closed or no session is free within 30 seconds
     */
    public <R extends @Nullable Object> R withSession(SessionWork<R> work) throws SQLException {
        Session session = borrow();
        boolean healthy = false;
        try {
            R result = work.run(session);
            healthy = true;
            return result;
        } catch (SQLException | RuntimeException failure) {
            healthy = SqliteErrors.isBusy(failure)
                    || !(failure instanceof SQLException || SqliteErrors.fromSqlite(failure));
            throw failure;
        } finally {
            if (healthy) {
                giveBack(session);
            } else {
                discard(session);
            }
        }
    }

    /** Closes a session a SQLite failure may have left half-run; a later borrow opens a fresh one in its place. */
    private void discard(Session session) {
        synchronized (this) {
            all.remove(session);
        }
        session.close();
    }

    /** Closes every session; sessions on loan close when they come back. */
    @Override
    public synchronized void close() {
        closed = true;
        Session session;
        while ((session = idle.poll()) != null) {
            session.close();
        }
    }

    private Session borrow() throws SQLException {
        long deadline = System.nanoTime() + BORROW_TIMEOUT_NANOS;
        Session session = idle.poll();
        while (session == null) {
            session = openIfRoom();
            if (session != null) {
                return session;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new LocalQueueException("no read connection to " + connector.file() + " became free within "
                        + TimeUnit.NANOSECONDS.toSeconds(BORROW_TIMEOUT_NANOS) + " s");
            }
            try {
                session = idle.poll(Math.min(remaining, RECHECK_NANOS), TimeUnit.NANOSECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new LocalQueueException("interrupted while waiting for a read connection to "
                        + connector.file(), interrupted);
            }
        }
        return session;
    }

    /** Opens another session when fewer than {@code size} exist, or returns null. */
    private synchronized @Nullable Session openIfRoom() throws SQLException {
        if (closed) {
            throw new LocalQueueException("the read connections of " + connector.file() + " are closed");
        }
        if (all.size() >= size) {
            return null;
        }
        Session opened = connector.open();
        all.add(opened);
        return opened;
    }

    private void giveBack(Session session) {
        synchronized (this) {
            if (!closed) {
                idle.add(session);
                return;
            }
        }
        session.close();
    }
}
