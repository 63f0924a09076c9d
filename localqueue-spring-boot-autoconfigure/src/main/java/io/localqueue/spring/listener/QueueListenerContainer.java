package io.localqueue.spring.listener;

import io.localqueue.Worker;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs one listener endpoint: a {@link Worker} over its queue, created afresh on every start, since a worker
 * runs once.
 *
 * @since 0.1.0
 */
public class QueueListenerContainer {

    private final QueueListenerEndpoint endpoint;
    private final Supplier<Worker<?>> workers;
    private final boolean autoStartup;
    private final Duration shutdownTimeout;
    private volatile Worker<?> worker;
    private volatile boolean paused;
    /** Runs jobs on callers' threads; never started, made on first use and dropped by a stop. */
    private volatile @Nullable Worker<?> callerWorker;

    /**
     * Creates a stopped container.
     *
     * @param endpoint the listener it runs
     * @param workers makes a configured, unstarted worker
     * @param autoStartup whether the registry starts it with the context
     * @param shutdownTimeout how long a stop waits for running invocations, as the workers are configured to
     */
    public QueueListenerContainer(QueueListenerEndpoint endpoint, Supplier<Worker<?>> workers, boolean autoStartup,
                                  Duration shutdownTimeout) {
        this.endpoint = endpoint;
        this.workers = workers;
        this.autoStartup = autoStartup;
        this.shutdownTimeout = shutdownTimeout;
        this.worker = workers.get();
    }

    /**
     * Starts consuming; does nothing when already running.
     */
    public synchronized void start() {
        if (worker.isRunning()) {
            return;
        }
        Worker<?> fresh = workers.get();
        if (paused) {
            fresh.pause();
        }
        worker = fresh;
        fresh.start();
    }

    /**
     * Stops consuming and waits, up to the shutdown timeout, for running invocations to finish; those still running
     * afterwards are interrupted and their results discarded.
     *
     * @return true when every invocation finished in time
     */
    public boolean stop() {
        return stop(shutdownTimeout);
    }

    /**
     * Stops like {@link #stop()}, waiting no longer than {@code limit} even when the shutdown timeout is longer.
     *
     * @param limit the longest wait, zero or more
     * @return true when every invocation finished in time
     */
    public synchronized boolean stop(Duration limit) {
        Worker<?> caller = callerWorker;
        if (caller != null) {
            callerWorker = null;
            caller.stop(Duration.ZERO);
        }
        return worker.stop(within(limit));
    }

    /**
     * Handles one due job of the listener's queue on the calling thread, with the configuration of this container's
     * workers (permanent errors, retries, heartbeats, observers), whether or not the container runs; its outcome is
     * recorded before this returns. Tests use it to run a listener synchronously; in an application, prefer
     * {@link #start()}.
     *
     * @return false when no job was due, or another writer held the queue's lock at that moment
     * @since 0.1.0
     */
    public boolean runOnce() {
        return callerWorker().runOnce();
    }

    private synchronized Worker<?> callerWorker() {
        Worker<?> caller = callerWorker;
        if (caller == null) {
            caller = workers.get();
            callerWorker = caller;
        }
        return caller;
    }

    /**
     * Returns how long a stop within {@code limit} waits: the shorter of the limit and the shutdown timeout.
     *
     * @param limit the longest wait
     * @return the wait
     */
    public Duration within(Duration limit) {
        return limit.compareTo(shutdownTimeout) < 0 ? limit : shutdownTimeout;
    }

    /**
     * Returns how long a stop waits for running invocations.
     *
     * @return the shutdown timeout
     */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /**
     * Stops taking jobs without waiting and without stopping: running invocations finish and settle as usual, and
     * jobs taken ahead go back to the queue without spending a delivery. A paused container stays paused across a
     * stop and start until {@link #resume()}.
     *
     * @since 0.1.0
     */
    public synchronized void pause() {
        paused = true;
        worker.pause();
    }

    /**
     * Takes jobs again after {@link #pause()}; does nothing when not paused.
     *
     * @since 0.1.0
     */
    public synchronized void resume() {
        paused = false;
        worker.resume();
    }

    /**
     * Returns whether the container is paused; a paused container may still be running.
     *
     * @return true between {@link #pause()} and {@link #resume()}
     * @since 0.1.0
     */
    public boolean isPaused() {
        return paused;
    }

    /**
     * Returns whether the container is consuming.
     *
     * @return true while running
     */
    public boolean isRunning() {
        return worker.isRunning();
    }

    /**
     * Returns how many invocations are running right now, those of {@link #runOnce()} included.
     *
     * @return the number of jobs in hand
     */
    public int activeJobs() {
        Worker<?> caller = callerWorker;
        return worker.activeJobs() + (caller == null ? 0 : caller.activeJobs());
    }

    /**
     * Returns whether the registry starts this container with the context.
     *
     * @return the auto-startup flag
     */
    public boolean isAutoStartup() {
        return autoStartup;
    }

    /**
     * Returns the listener this container runs.
     *
     * @return the endpoint
     */
    public QueueListenerEndpoint endpoint() {
        return endpoint;
    }
}
