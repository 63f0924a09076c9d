package io.localqueue.internal.time;

import io.localqueue.DatabaseBusyException;
import io.localqueue.LocalQueueException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Jittered, doubling pauses between attempts that found SQLite's write lock taken, within a time budget that
 * starts at the first pause.
 */
public final class Backoff {

    private final long firstNanos;
    private final long maxNanos;
    private final long budgetNanos;
    private long startedAt = -1;
    private long nextNanos;

    /**
     * Creates a backoff.
     *
     * @param firstNanos the first pause
     * @param maxNanos the longest pause
     * @param budgetNanos how long to keep trying, from the first pause; zero gives up at once
     */
    public Backoff(long firstNanos, long maxNanos, long budgetNanos) {
        this.firstNanos = firstNanos;
        this.maxNanos = maxNanos;
        this.budgetNanos = budgetNanos;
        this.nextNanos = firstNanos;
    }

    /**
     * Pauses before the next attempt.
     *
     * @param locked what was locked, for messages
     * @param busy the contention that made the attempt fail, kept as the cause of what is thrown
     * @throws DatabaseBusyException once the budget is spent, naming what was locked and for how long
     * @throws LocalQueueException when the thread is interrupted
     */
    public void pause(String locked, Throwable busy) {
        long now = System.nanoTime();
        if (startedAt < 0) {
            startedAt = now;
        }
        long waited = now - startedAt;
        if (waited >= budgetNanos) {
            throw new DatabaseBusyException("database is locked: another connection kept the write lock on "
                    + locked + " for the " + waited / 1_000_000 + " ms this write waited (" + busy.getMessage() + ")",
                    Duration.ofNanos(waited), busy);
        }
        LockSupport.parkNanos(Math.min(budgetNanos - waited,
                ThreadLocalRandom.current().nextLong(nextNanos / 2, nextNanos + nextNanos / 2 + 1)));
        if (Thread.currentThread().isInterrupted()) {
            throw new LocalQueueException("interrupted while waiting for the write lock on " + locked, busy);
        }
        nextNanos = Math.min(nextNanos * 2, maxNanos);
    }

    /** Starts afresh after an attempt that got the lock. */
    public void reset() {
        startedAt = -1;
        nextNanos = firstNanos;
    }
}
