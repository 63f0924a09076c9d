package io.localqueue.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes threads that wait for work or for room in a queue.
 *
 * <p>Commits made through this JVM signal their queue directly. Commits made by other processes are noticed by one
 * watcher thread per database file that polls {@code PRAGMA data_version} on its own connection while, and only
 * while, some thread is waiting; every change it sees wakes every waiter, which then re-checks its queue.
 */
final class ChangeNotifier implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChangeNotifier.class);

    /** Poll interval while changes were seen recently. */
    static final long ACTIVE_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(1000);
    /** Poll interval once the file has been quiet for {@link #QUIET_AFTER_NANOS}. */
    static final long QUIET_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(4000);
    static final long QUIET_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DataSource watchSource;
    private final String fileName;
    private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();
    private final AtomicInteger waiters = new AtomicInteger();
    private final ReentrantLock watcherLock = new ReentrantLock();
    private final Condition waitersArrived = watcherLock.newCondition();
    private volatile boolean closed;
    private @Nullable Thread watcher;

    ChangeNotifier(DataSource watchSource, String fileName) {
        this.watchSource = watchSource;
        this.fileName = fileName;
    }

    /**
     * Returns the change counter of a queue; pass it to {@link #await} after checking the queue so that a change
     * made in between is not missed.
     */
    long version(String queue) {
        return signalOf(queue).version.get();
    }

    /** Wakes the threads waiting on one queue after a commit from this JVM. */
    void signal(String queue) {
        Signal signal = signals.get(queue);
        if (signal != null) {
            signal.fire();
        }
    }

    /**
     * Waits until the queue changes after {@code seenVersion}, the timeout passes, or the thread is interrupted.
     *
     * @return true when a change was seen
     */
    boolean await(String queue, long seenVersion, long timeoutNanos) throws InterruptedException {
        if (timeoutNanos <= 0 || closed) {
            return false;
        }
        Signal signal = signalOf(queue);
        if (waiters.getAndIncrement() == 0) {
            wakeWatcher();
        }
        try {
            return signal.awaitChange(seenVersion, timeoutNanos);
        } finally {
            waiters.decrementAndGet();
        }
    }

    /** Wakes every waiter of every queue, so that each re-checks its queue (and its closed flag). */
    void signalAll() {
        for (Signal signal : signals.values()) {
            signal.fire();
        }
    }

    @Override
    public void close() {
        closed = true;
        signalAll();
        wakeWatcher();
        Thread thread;
        watcherLock.lock();
        try {
            thread = watcher;
            watcher = null;
        } finally {
            watcherLock.unlock();
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Signal signalOf(String queue) {
        return signals.computeIfAbsent(queue, name -> new Signal());
    }

    private void wakeWatcher() {
        watcherLock.lock();
        try {
            if (watcher == null && !closed) {
                Thread thread = new Thread(this::watch, "localqueue-watch-" + fileName);
                thread.setDaemon(true);
                watcher = thread;
                thread.start();
            }
            waitersArrived.signalAll();
        } finally {
            watcherLock.unlock();
        }
    }

    private void watch() {
        while (!closed) {
            try (Connection connection = watchSource.getConnection();
                 PreparedStatement dataVersion = connection.prepareStatement("PRAGMA data_version")) {
                pollWhileWaited(dataVersion);
            } catch (SQLException | RuntimeException failure) {
                if (closed) {
                    return;
                }
                log.warn("Watching {} for changes failed; retrying", fileName, failure);
                signalAll();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }

    private void pollWhileWaited(PreparedStatement dataVersion) throws SQLException, InterruptedException {
        long last = read(dataVersion);
        long lastChange = System.nanoTime();
        while (!closed) {
            if (waiters.get() == 0) {
                awaitWaiters();
                last = read(dataVersion);
                lastChange = System.nanoTime();
                continue;
            }
            long now = System.nanoTime();
            LockSupport.parkNanos(now - lastChange < QUIET_AFTER_NANOS ? ACTIVE_POLL_NANOS : QUIET_POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long current = read(dataVersion);
            if (current != last) {
                last = current;
                lastChange = System.nanoTime();
                signalAll();
            }
        }
    }

    private void awaitWaiters() throws InterruptedException {
        watcherLock.lock();
        try {
            while (waiters.get() == 0 && !closed) {
                waitersArrived.await();
            }
        } finally {
            watcherLock.unlock();
        }
    }

    private static long read(PreparedStatement dataVersion) throws SQLException {
        try (ResultSet rows = dataVersion.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The wake-up state of one queue: a change counter and the threads waiting on it. */
    private static final class Signal {
        private final AtomicLong version = new AtomicLong();
        private final AtomicInteger waiting = new AtomicInteger();
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();

        void fire() {
            version.incrementAndGet();
            if (waiting.get() > 0) {
                lock.lock();
                try {
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }

        boolean awaitChange(long seenVersion, long timeoutNanos) throws InterruptedException {
            lock.lock();
            waiting.incrementAndGet();
            try {
                long remaining = timeoutNanos;
                while (version.get() == seenVersion) {
                    if (remaining <= 0) {
                        return false;
                    }
                    remaining = changed.awaitNanos(remaining);
                }
                return true;
            } finally {
                waiting.decrementAndGet();
                lock.unlock();
            }
        }
    }
}
