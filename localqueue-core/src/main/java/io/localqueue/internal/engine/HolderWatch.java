package io.localqueue.internal.engine;

import io.localqueue.internal.store.QueueStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Looks, for one queue's claims, for leases whose holders ended: at most once every {@link #CHECK_NANOS}, one claim
 * reads which processes the queue's leases name and which of them have ended (a read of the leased rows alone), so
 * that its transaction takes their leases back. The jobs of a killed process so come back within about a second
 * rather than when their leases end, and a queue whose consumers all run pays one small read a second.
 */
final class HolderWatch {

    /** How often a queue's claims look for leases whose holders ended. */
    static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final QueueStore store;
    private final String queue;
    private final LongSupplier nanoTime;
    private final AtomicLong nextCheck;

    HolderWatch(QueueStore store, String queue) {
        this(store, queue, System::nanoTime);
    }

    HolderWatch(QueueStore store, String queue, LongSupplier nanoTime) {
        this.store = store;
        this.queue = queue;
        this.nanoTime = nanoTime;
        this.nextCheck = new AtomicLong(nanoTime.getAsLong());
    }

    /**
     * Looks when a look is due and no other thread took it.
     *
     * @return the holders that ended, whose leases the caller's claim takes back; empty when none did or no look was due
     */
    List<String> endedIfDue() {
        long now = nanoTime.getAsLong();
        long due = nextCheck.get();
        if (now - due < 0 || !nextCheck.compareAndSet(due, now + CHECK_NANOS)) {
            return List.of();
        }
        return store.endedHolders(queue);
    }

    /**
     * Returns how long a claim that waits for work may sleep before the next look is due.
     *
     * @return milliseconds, never negative
     */
    long millisUntilDue() {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(nextCheck.get() - nanoTime.getAsLong()) + 1);
    }
}
