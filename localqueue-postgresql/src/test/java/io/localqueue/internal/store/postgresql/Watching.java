package io.localqueue.internal.store.postgresql;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link NotifyWatch} of a test's layout running on a thread of its own, counting the times it woke the waiters. */
final class Watching implements AutoCloseable {

    private final NotifyWatch watch;
    private final Semaphore woken = new Semaphore(0);
    private final AtomicBoolean wanted = new AtomicBoolean(true);
    private final CompletableFuture<Void> running;

    Watching(String schema) {
        watch = new NotifyWatch(PostgresServer.database(), schema);
        running = CompletableFuture.runAsync(() -> {
            try {
                watch.watch(wanted::get, woken::release);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Waits until the watch woke the waiters {@code times} times more, or the timeout passes. */
    boolean woke(int times, long timeoutMillis) throws InterruptedException {
        return woken.tryAcquire(times, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Forgets the wake-ups counted so far. */
    void forget() {
        woken.drainPermits();
    }

    /** Ends the watch, waits for its thread and releases its connection. */
    @Override
    public void close() throws Exception {
        wanted.set(false);
        try {
            running.get(10, TimeUnit.SECONDS);
        } finally {
            watch.close();
        }
    }
}
