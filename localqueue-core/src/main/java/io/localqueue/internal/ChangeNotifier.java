package io.localqueue.internal;

import java.nio.file.Path;
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
 * watcher thread per database file while, and only while, some thread is waiting: it checks
 * {@code PRAGMA data_version} on its own connection after every file-system event on the database files and on a
 * timer (fast for a while after any activity, slow when events can be trusted, see {@link FileEvents}); every change
 * it sees wakes every waiter, which then re-checks its queue.
 */
final class ChangeNotifier implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChangeNotifier.class);

    /** Poll interval for a while after any activity: a file event can precede the commit it announces. */
    static final long ACTIVE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long activity keeps the fast poll going. */
    static final long ACTIVE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Safety poll while the file system announces writes. */
    static final long EVENT_DRIVEN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Poll interval while nothing happens on platforms without file-system events. */
    static final long QUIET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How long the watcher keeps watching after the last waiter left, so a waiter looping back is not missed. */
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DataSource watchSource;
    private final Path directory;
    private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();
    private final AtomicInteger waiters = new AtomicInteger();
    private final ReentrantLock watcherLock = new ReentrantLock();
    private final Condition waitersArrived = watcherLock.newCondition();
    private volatile boolean closed;
    private @Nullable Thread watcher;

    ChangeNotifier(DataSource watchSource, Path directory) {
        this.watchSource = watchSource;
        this.directory = directory;
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
                Thread thread = new Thread(this::watch, "localqueue-watch-" + directory.getFileName());
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
        try (FileEvents events = FileEvents.open(directory, Database.FILE_NAME)) {
            while (!closed) {
                try (Connection connection = watchSource.getConnection();
                     PreparedStatement dataVersion = connection.prepareStatement("PRAGMA data_version")) {
                    watchWhileWaited(dataVersion, events);
                } catch (SQLException | RuntimeException failure) {
                    if (closed) {
                        return;
                    }
                    log.warn("Watching {} for changes failed; retrying", directory, failure);
                    signalAll();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Checks {@code data_version} after every file event and on a timer: every millisecond for a while after any
     * activity, then slowly when file events can be trusted to announce the next commit (or at a moderate pace
     * where they cannot). Stops altogether a while after the last waiter left.
     */
    private void watchWhileWaited(PreparedStatement dataVersion, FileEvents events)
            throws SQLException, InterruptedException {
        long last = Long.MIN_VALUE;
        long activeUntil = 0;
        long lastWaiterSeen = System.nanoTime();
        boolean watching = false;
        while (!closed) {
            long now = System.nanoTime();
            if (waiters.get() > 0) {
                lastWaiterSeen = now;
            } else if (now - lastWaiterSeen > LINGER_NANOS) {
                events.stop();
                watching = false;
                awaitWaiters();
                continue;
            }
            if (!watching) {
                // Waiters probed the queue before this baseline was read: wake them to probe once more, so a
                // commit that landed in between is not missed.
                events.start();
                watching = true;
                last = read(dataVersion);
                activeUntil = System.nanoTime() + ACTIVE_NANOS;
                signalAll();
                continue;
            }
            long wait = now - activeUntil < 0 ? ACTIVE_POLL_NANOS
                    : events.eventDriven() ? EVENT_DRIVEN_POLL_NANOS : QUIET_POLL_NANOS;
            if (events.await(wait)) {
                activeUntil = System.nanoTime() + ACTIVE_NANOS;
            }
            long current = read(dataVersion);
            if (current != last) {
                last = current;
                activeUntil = System.nanoTime() + ACTIVE_NANOS;
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
