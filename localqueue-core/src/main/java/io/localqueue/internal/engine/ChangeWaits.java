package io.localqueue.internal.engine;

import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.internal.time.Deadline;
import io.localqueue.internal.wakeup.Wakeups;
import java.util.concurrent.TimeUnit;

/**
 * How a call that waits for work or for room in one queue sleeps: until the queue changes, a known moment passes
 * (a job falls due, a lease ends) or its deadline comes, whichever is first.
 */
final class ChangeWaits {

    private final String queue;
    private final Wakeups wakeups;
    private final Runnable ensureOpen;

    ChangeWaits(String queue, Wakeups wakeups, Runnable ensureOpen) {
        this.queue = queue;
        this.wakeups = wakeups;
        this.ensureOpen = ensureOpen;
    }

    /** Returns the queue's change counter; read it before looking at the queue, then pass it to the wait. */
    long version() {
        return wakeups.version(queue);
    }

    /**
     * Waits for a change after {@code seenVersion}, for at most {@code maxWaitMillis} and never past the deadline.
     *
     * @return false when the deadline had already passed, so the caller should give up
     * @throws QueueClosedException when the queue was closed while waiting
     */
    boolean awaitChange(long seenVersion, Deadline deadline, long maxWaitMillis) {
        long remaining = deadline.remainingNanos();
        if (remaining == 0) {
            return false;
        }
        long wait = maxWaitMillis >= TimeUnit.NANOSECONDS.toMillis(Long.MAX_VALUE)
                ? remaining : Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(maxWaitMillis) + 1);
        try {
            wakeups.await(queue, seenVersion, wait);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LocalQueueException("interrupted while waiting on queue '" + queue + "'", interrupted);
        }
        ensureOpen.run();
        return true;
    }
}
