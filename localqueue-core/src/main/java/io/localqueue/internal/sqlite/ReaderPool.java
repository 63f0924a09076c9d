package io.localqueue.internal.sqlite;

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
 * statements must close with it; a few connections to a local file need no validation, eviction or resizing.
 */
public final class ReaderPool implements AutoCloseable {

    private static final long BORROW_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

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
        try {
            return work.run(session);
        } finally {
            giveBack(session);
        }
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
        Session session = idle.poll();
        if (session != null) {
            return session;
        }
        synchronized (this) {
            if (closed) {
                throw new LocalQueueException("the read connections of " + connector.file() + " are closed");
            }
            if (all.size() < size) {
                Session opened = connector.open();
                all.add(opened);
                return opened;
            }
        }
        try {
            session = idle.poll(BORROW_TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LocalQueueException("interrupted while waiting for a read connection to " + connector.file(),
                    interrupted);
        }
        if (session == null) {
            throw new LocalQueueException("no read connection to " + connector.file() + " became free within "
                    + TimeUnit.NANOSECONDS.toSeconds(BORROW_TIMEOUT_NANOS) + " s");
        }
        return session;
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
