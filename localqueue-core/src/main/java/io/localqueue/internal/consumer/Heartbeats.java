package io.localqueue.internal.consumer;

import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Renews the leases of a worker's running jobs, each every interval, on one scheduler thread started with the first
 * job. A renewal that finds the lease gone marks the job's beat lost, so the worker discards the handler's result;
 * a renewal that fails otherwise is tried again at the next beat.
 */
public final class Heartbeats {

    private final Logger log;
    private final @Nullable Duration interval;
    private final ThreadFactory threads;
    private @Nullable ScheduledExecutorService scheduler;

    /**
     * Creates the heartbeats of a worker.
     *
     * @param interval how often a running job's lease is renewed, or null for never
     * @param threads makes the scheduler thread
     * @param log the worker's logger, so that one category holds everything a worker reports
     */
    public Heartbeats(@Nullable Duration interval, ThreadFactory threads, Logger log) {
        this.log = log;
        this.interval = interval;
        this.threads = threads;
    }

    /**
     * Starts renewing a delivery's lease while its handler runs.
     *
     * @param renewal renews the lease once, throwing {@link LeaseExpiredException} when it is gone
     * @param id the message id, for logs
     * @param queue the queue's name, for logs
     * @return the beat to stop when the handler returns
     */
    public Beat start(Runnable renewal, long id, String queue) {
        Beat beat = new Beat();
        Duration every = interval;
        if (every != null) {
            long nanos = every.toNanos();
            beat.future = scheduler().scheduleWithFixedDelay(() -> renew(beat, renewal, id, queue), nanos, nanos,
                    TimeUnit.NANOSECONDS);
        }
        return beat;
    }

    /** Stops the scheduler thread; beats still scheduled end with it. */
    public synchronized void shutdown() {
        ScheduledExecutorService running = scheduler;
        if (running != null) {
            running.shutdownNow();
        }
    }

    private synchronized ScheduledExecutorService scheduler() {
        ScheduledExecutorService running = scheduler;
        if (running == null) {
            // A beat is cancelled when its handler returns, mostly long before it would first fire: removed at once,
            // cancelled beats do not pile up in the scheduler's queue for a whole interval.
            ScheduledThreadPoolExecutor created = new ScheduledThreadPoolExecutor(1, threads);
            created.setRemoveOnCancelPolicy(true);
            running = created;
            scheduler = running;
        }
        return running;
    }

    private void renew(Beat beat, Runnable renewal, long id, String queue) {
        if (beat.stopped || beat.lost) {
            return;
        }
        try {
            renewal.run();
        } catch (LeaseExpiredException | QueueClosedException lost) {
            if (!beat.stopped) {
                beat.lost = true;
                log.warn("Lease of job {} in queue '{}' could not be renewed; the handler's result will be discarded",
                        id, queue);
            }
            throw new LeaseLost();
        } catch (LocalQueueException failure) {
            log.warn("Renewing the lease of job {} in queue '{}' failed; trying again at the next heartbeat",
                    id, queue, failure);
        }
    }

    /** The renewals of one running job; shared between its handler's thread and the scheduler. */
    public static final class Beat {
        private volatile boolean stopped;
        private volatile boolean lost;
        private @Nullable ScheduledFuture<?> future;

        /**
         * Stops renewing, once the handler returned.
         *
         * @return true when a renewal found the lease already gone
         */
        public boolean stop() {
            stopped = true;
            ScheduledFuture<?> scheduled = future;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
            return lost;
        }
    }

    /** Ends a beat's repetitions once its lease is gone. */
    private static final class LeaseLost extends RuntimeException {
        LeaseLost() {
            super("lease lost", null, false, false);
        }
    }
}
