package io.localqueue;

import java.time.Duration;
import java.time.Instant;
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
 * for every thread idle beside it and, while handlers finish well within the lease, some more for later; the
 * others wait for its batch instead of claiming on their own. A job that waited in hand long enough to spend half
 * its lease is renewed before it runs; jobs still in hand when the worker stops go back to the queue uncounted.
 */
final class JobFeed<T> {

    private static final Logger log = LoggerFactory.getLogger(JobFeed.class);

    /** The most jobs taken in one claim. */
    static final int MAX_BATCH = 256;

    private final SimpleQueue<T> queue;
    private final int threads;
    private final long pollNanos;
    private final long leaseNanos;
    private final BooleanSupplier stopping;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Job<T>> inHand = new ArrayDeque<>();
    private boolean claiming;
    private int idle;
    /** Exponentially weighted mean of handler time in nanoseconds; negative until the first job finished. */
    private volatile double meanHandlerNanos = -1;

    JobFeed(SimpleQueue<T> queue, int threads, long pollNanos, BooleanSupplier stopping) {
        this.queue = queue;
        this.threads = threads;
        this.pollNanos = pollNanos;
        this.leaseNanos = queue.delivery().lease().toNanos();
        this.stopping = stopping;
    }

    /**
     * Returns the next job for the calling thread, claiming a batch when none is in hand; null when nothing
     * arrived within the poll interval or the worker is stopping.
     */
    @Nullable Job<T> next() {
        while (true) {
            Take<T> take = take();
            if (take.job != null) {
                Job<T> job = fresh(take.job);
                if (job != null) {
                    return job;
                }
                continue;
            }
            if (!take.claim) {
                return null;
            }
            List<Job<T>> claimed = List.of();
            try {
                claimed = queue.claim(pollNanos, batchSize(take.waitingBeside), stopping);
            } finally {
                lock.lock();
                try {
                    claiming = false;
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

    /** Takes a job in hand, or the right to claim, or nothing once the poll interval passed without either. */
    private Take<T> take() {
        lock.lock();
        try {
            while (!stopping.getAsBoolean()) {
                Job<T> job = inHand.poll();
                if (job != null) {
                    return new Take<>(job, false, 0);
                }
                if (!claiming) {
                    claiming = true;
                    return new Take<>(null, true, idle);
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
            return new Take<>(null, false, 0);
        } finally {
            lock.unlock();
        }
    }

    /** Records how long a handler ran, to size later claims. */
    void handled(Duration handlerTime) {
        double sample = handlerTime.toNanos();
        double mean = meanHandlerNanos;
        meanHandlerNanos = mean < 0 ? sample : mean * 0.9 + sample * 0.1;
    }

    /** Wakes threads waiting for a batch, so they notice the worker stopping. */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Hands every job still in hand back to the queue, uncounted. */
    void releaseAll() {
        List<Job<T>> left;
        lock.lock();
        try {
            left = new ArrayList<>(inHand);
            inHand.clear();
        } finally {
            lock.unlock();
        }
        for (Job<T> job : left) {
            try {
                queue.release(job);
            } catch (LocalQueueException failure) {
                log.debug("Job {} of queue '{}' could not be handed back; it returns when its lease ends",
                        job.id(), queue.name(), failure);
            }
        }
    }

    /**
     * Claims for this thread and the idle ones; while handlers take less than a tenth of a lease per job and
     * thread, more is taken, so the waiting ones still start well within their leases.
     */
    private int batchSize(int waitingBeside) {
        int needed = 1 + waitingBeside;
        double mean = meanHandlerNanos;
        if (mean < 0) {
            return needed;
        }
        double spare = threads * (leaseNanos / 10.0) / Math.max(mean, 1.0);
        return (int) Math.min(MAX_BATCH, needed + Math.min(spare, MAX_BATCH));
    }

    /** Renews a job that spent half its lease in hand; drops one whose lease is already gone. */
    private @Nullable Job<T> fresh(Job<T> job) {
        long remainingNanos = TimeUnit.MILLISECONDS.toNanos(job.leaseExpiresAt().toEpochMilli() - queue.now());
        if (remainingNanos > leaseNanos / 2) {
            return job;
        }
        try {
            job.extendLease(queue.delivery().lease());
            return job;
        } catch (LeaseExpiredException expired) {
            log.debug("Job {} of queue '{}' lost its lease while waiting to run; it will be delivered again",
                    job.id(), queue.name());
            return null;
        }
    }

    /** What {@link #take()} got: a job, or the duty to claim for this thread and {@code waitingBeside} others. */
    private record Take<T>(@Nullable Job<T> job, boolean claim, int waitingBeside) {
    }

    @Override
    public String toString() {
        return "JobFeed[" + queue.name() + ", inHand=" + inHand.size() + ", at " + Instant.ofEpochMilli(queue.now())
                + "]";
    }
}
