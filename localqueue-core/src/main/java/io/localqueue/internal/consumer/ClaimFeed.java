package io.localqueue.internal.consumer;

import io.localqueue.InvalidArgumentException;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ClaimedRow;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands claimed jobs to a worker's threads. One thread at a time claims, in one transaction, a job for itself, one
 * for every thread idle beside it and, while handlers finish well within the lease, up to {@code prefetch} more for
 * later; the others wait for its batch instead of claiming on their own. Jobs in hand that no thread has started
 * thus never number more than the prefetch (beyond one for each idle thread), since a claim is made only once the
 * hand is empty. A job that waited in hand long enough to spend half its lease is renewed before it runs; jobs still
 * in hand when the worker stops go back to the queue uncounted.
 */
public final class ClaimFeed implements ClaimSource<ClaimedRow> {

    private static final Logger log = LoggerFactory.getLogger(ClaimFeed.class);

    /** The most jobs taken in one claim, and the largest prefetch. */
    public static final int MAX_BATCH = 256;

    private final QueueEngine engine;
    private final String queue;
    private final int threads;
    private final long pollNanos;
    private final long leaseMillis;
    private final int prefetch;
    private final BooleanSupplier stopping;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<ClaimedRow> inHand = new ArrayDeque<>();
    private boolean claiming;
    /** Whether the last claim, by whichever thread, failed; a thread that only waited for it learns nothing. */
    private volatile boolean lastClaimFailed;
    private int idle;
    /** Exponentially weighted mean of handler time in nanoseconds; negative until the first job finished. */
    private volatile double meanHandlerNanos = -1;

    /**
     * Creates the feed of one worker.
     *
     * @param engine the queue
     * @param queue the queue's name, for logs
     * @param threads how many threads take jobs from the feed
     * @param pollNanos how long a thread waits for a job before {@link #next()} returns null
     * @param lease the queue's lease
     * @param prefetch the most jobs claimed for later, beyond one for each idle thread; 0 to {@link #MAX_BATCH}
     * @param stopping true once the worker stops
     */
    public ClaimFeed(QueueEngine engine, String queue, int threads, long pollNanos, Duration lease, int prefetch,
                     BooleanSupplier stopping) {
        this.engine = engine;
        this.queue = queue;
        this.threads = threads;
        this.pollNanos = pollNanos;
        this.leaseMillis = lease.toMillis();
        this.prefetch = requirePrefetch(prefetch, "prefetch");
        this.stopping = stopping;
    }

    /**
     * Checks a prefetch setting.
     *
     * @param prefetch the setting
     * @param parameter its name, for the message
     * @return the setting
     * @throws IllegalArgumentException when it is negative or over {@link #MAX_BATCH}
     */
    public static int requirePrefetch(int prefetch, String parameter) {
        if (prefetch < 0 || prefetch > MAX_BATCH) {
            throw new InvalidArgumentException(parameter, parameter + " must be between 0 and " + MAX_BATCH + ", got " + prefetch);
        }
        return prefetch;
    }

    /**
     * Returns the next job for the calling thread, claiming a batch when none is in hand.
     *
     * @return a leased row, or null when nothing arrived within the poll interval or the worker is stopping
     */
    @Override
    public @Nullable ClaimedRow next() {
        while (true) {
            Take take = take();
            if (take.row != null) {
                ClaimedRow row = fresh(take.row);
                if (row != null) {
                    return row;
                }
                continue;
            }
            if (!take.claim) {
                return null;
            }
            List<ClaimedRow> claimed = List.of();
            boolean answered = false;
            try {
                claimed = engine.claim(pollNanos, batchSize(take.waitingBeside), stopping);
                answered = true;
            } finally {
                lock.lock();
                try {
                    claiming = false;
                    lastClaimFailed = !answered;
                    for (int i = 1; i < claimed.size(); i++) {
                        inHand.add(claimed.get(i));
                    }
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
            return claimed.isEmpty() ? null : fresh(claimed.get(0));
        }
    }

    /**
     * Tells whether the last claim of this feed failed, so that a thread whose {@link #next()} returned nothing after
     * waiting for another thread's claim does not take the wait for a working database.
     *
     * @return true when the last claim threw
     */
    @Override
    public boolean lastClaimFailed() {
        return lastClaimFailed;
    }

    /**
     * Records how long a handler ran, to size later claims.
     *
     * @param handlerTime the handler's run time
     */
    @Override
    public void handled(Duration handlerTime) {
        double sample = handlerTime.toNanos();
        double mean = meanHandlerNanos;
        meanHandlerNanos = mean < 0 ? sample : mean * 0.9 + sample * 0.1;
    }

    /** Wakes threads waiting for a batch, so they notice the worker stopping. */
    @Override
    public void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Hands every job still in hand back to the queue, uncounted. */
    @Override
    public void releaseAll() {
        List<ClaimedRow> left;
        lock.lock();
        try {
            left = new ArrayList<>(inHand);
            inHand.clear();
        } finally {
            lock.unlock();
        }
        for (ClaimedRow row : left) {
            try {
                engine.release(row.id(), row.receipt());
            } catch (LocalQueueException failure) {
                log.debug("Job {} of queue '{}' could not be handed back; it returns when its lease ends",
                        row.id(), queue, failure);
            }
        }
    }

    /** Takes a job in hand, or the right to claim, or nothing once the poll interval passed without either. */
    private Take take() {
        lock.lock();
        try {
            while (!stopping.getAsBoolean()) {
                ClaimedRow row = inHand.poll();
                if (row != null) {
                    return new Take(row, false, 0);
                }
                if (!claiming) {
                    claiming = true;
                    return new Take(null, true, idle);
                }
                idle++;
                try {
                    if (changed.awaitNanos(pollNanos) <= 0) {
                        break;
                    }
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                } finally {
                    idle--;
                }
            }
            return new Take(null, false, 0);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Claims for this thread and the idle ones; while handlers take less than a tenth of a lease per job and
     * thread, up to {@code prefetch} more are taken, so the waiting ones still start well within their leases.
     */
    private int batchSize(int waitingBeside) {
        int needed = 1 + waitingBeside;
        double mean = meanHandlerNanos;
        if (mean < 0) {
            return needed;
        }
        double spare = threads * (TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 10.0) / Math.max(mean, 1.0);
        return (int) Math.min(MAX_BATCH, needed + Math.min(spare, prefetch));
    }

    /** Renews a job that spent half its lease in hand; drops one whose lease is already gone. */
    private @Nullable ClaimedRow fresh(ClaimedRow row) {
        long remainingMillis = row.leaseUntil() - engine.now();
        if (remainingMillis > leaseMillis / 2) {
            return row;
        }
        try {
            return row.renewedUntil(engine.extendLease(row.id(), row.receipt(), leaseMillis));
        } catch (LeaseExpiredException expired) {
            log.debug("Job {} of queue '{}' lost its lease while waiting to run; it will be delivered again",
                    row.id(), queue);
            return null;
        }
    }

    /** What {@link #take()} got: a job, or the duty to claim for this thread and {@code waitingBeside} others. */
    private record Take(@Nullable ClaimedRow row, boolean claim, int waitingBeside) {
    }
}
