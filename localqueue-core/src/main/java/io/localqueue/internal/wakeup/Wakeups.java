package io.localqueue.internal.wakeup;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes threads that wait for work or for room in a queue of one database.
 *
 * <p>Commits made through this JVM signal their queue directly. Commits made by other processes are noticed by one
 * watcher thread per database, which runs the store's {@link ChangeWatch} while, and only while, some thread is
 * waiting (and for a second after the last one left, so a waiter looping back is not missed); every change it
 * notices wakes every waiter, which then re-checks its queue.
 */
public final class Wakeups implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Wakeups.class);

    /**
     * How long the watch keeps going after the last waiter left: enough to bridge one claim to the next, short
     * enough that a consumer process whose claimers sleep while another process holds the queue's turn stops
     * reading other processes' commits.
     */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    private final ChangeWatch watch;
    private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();
    private final AtomicInteger waiters = new AtomicInteger();
    private final ReentrantLock watcherLock = new ReentrantLock();
    private final Condition waitersArrived = watcherLock.newCondition();
    private volatile boolean closed;
    private volatile long lastWaiterSeen;
    private @Nullable Thread watcher;

    /**
     * Creates the wake-ups of one database.
     *
     * @param name names the watcher thread
     * @param watch notices other processes' commits
     */
    public Wakeups(String name, ChangeWatch watch) {
        this.name = name;
        this.watch = watch;
    }

    /**
     * Returns the change counter of a queue; pass it to {@link #await} after checking the queue, so that a change
     * made in between is not missed.
     *
     * @param queue the queue
     * @return the counter
     */
    public long version(String queue) {
        return signalOf(queue).version.get();
    }

    /**
     * Wakes the threads waiting on one queue after a commit from this JVM.
     *
     * @param queue the queue
     */
    public void signal(String queue) {
        Signal signal = signals.get(queue);
        if (signal != null) {
            signal.fire();
        }
    }

    /** Wakes every waiter of every queue, so that each re-checks its queue (and whether it was closed). */
    public void signalAll() {
        for (Signal signal : signals.values()) {
            signal.fire();
        }
    }

    /**
     * Waits until the queue changes after {@code seenVersion}, the timeout passes, or the thread is interrupted.
     *
     * @param queue the queue
     * @param seenVersion what {@link #version} returned before the caller checked the queue
     * @param timeoutNanos how long to wait at most
     * @return true when a change was seen
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean await(String queue, long seenVersion, long timeoutNanos) throws InterruptedException {
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

    /** Wakes every waiter and stops the watcher; waits that start afterwards return at once. */
    @Override
    public void close() {
        closed = true;
        signalAll();
        Thread thread;
        watcherLock.lock();
        try {
            waitersArrived.signalAll();
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
        watch.close();
    }

    private Signal signalOf(String queue) {
        return signals.computeIfAbsent(queue, unused -> new Signal());
    }

    private void wakeWatcher() {
        watcherLock.lock();
        try {
            if (watcher == null && !closed) {
                Thread thread = new Thread(this::watchWhileWaited, "localqueue-watch-" + name);
                thread.setDaemon(true);
                watcher = thread;
                thread.start();
            }
            waitersArrived.signalAll();
        } finally {
            watcherLock.unlock();
        }
    }

    private void watchWhileWaited() {
        try {
            while (!closed) {
                awaitWaiters();
                if (closed) {
                    return;
                }
                lastWaiterSeen = System.nanoTime();
                try {
                    watch.watch(this::wanted, this::signalAll);
                } catch (RuntimeException failure) {
                    if (closed) {
                        return;
                    }
                    // A lost connection to a server that went away is expected; its stack trace says nothing more.
                    log.warn("Watching {} for changes failed; retrying: {}", name, failure.getMessage());
                    log.debug("Watching {} for changes failed", name, failure);
                    signalAll();
                    LockSupport.parkNanos(RETRY_PAUSE_NANOS);
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the watch should go on: someone waits, or waited less than the linger time ago. */
    private boolean wanted() {
        long now = System.nanoTime();
        if (waiters.get() > 0) {
            lastWaiterSeen = now;
        }
        return !closed && now - lastWaiterSeen <= LINGER_NANOS;
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
