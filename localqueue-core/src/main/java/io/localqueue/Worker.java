package io.localqueue;

import io.localqueue.internal.Durations;
import io.localqueue.internal.Errors;
import io.localqueue.internal.Settlement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link JobHandler} over a queue: claims jobs as they arrive, runs up to {@code concurrency} handlers at
 * once, acknowledges a job when its handler returns, dead-letters it when the handler throws one of the permanent
 * errors ({@link FailureReason#PERMANENT_HANDLER_ERROR}), and returns it for another delivery on any other
 * exception, with {@code lastError} "ExceptionClass: message". With a heartbeat interval, leases of running jobs
 * are renewed; when a lease is lost the handler's result is discarded and the job is left to its next delivery.
 *
 * <pre>{@code
 * Worker<Email> worker = Worker.builder(queue, job -> mailer.send(job.data()))
 *         .permanentErrors(InvalidAddressException.class)
 *         .heartbeatInterval(Duration.ofSeconds(10))
 *         .concurrency(4)
 *         .build();
 * worker.start();
 * // ...
 * worker.stop();
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class Worker<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Worker.class);

    /** How long {@code run()} waits for a job before looking again, unless configured. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /** How long {@code stop()} lets running handlers finish, unless configured. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private static final long ERROR_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private enum State { NEW, RUNNING, STOPPING, STOPPED }

    private final SimpleQueue<T> queue;
    private final JobHandler<T> handler;
    private final List<Class<? extends Throwable>> permanentErrors;
    private final @Nullable Duration heartbeatInterval;
    private final long pollNanos;
    private final int concurrency;
    private final Duration shutdownTimeout;
    private final WorkerObserver observer;
    private final String name;
    private final Object lifecycle = new Object();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger livePollers = new AtomicInteger();
    private final AtomicReference<@Nullable Throwable> fatal = new AtomicReference<>();
    private volatile State state = State.NEW;
    /** Set when a stop gave up waiting and interrupted the handlers still running. */
    private volatile boolean abandoned;
    private final JobFeed<T> feed;
    private final Settler<T> settler;
    private @Nullable ExecutorService pollers;
    private @Nullable ScheduledExecutorService heartbeats;

    private Worker(Builder<T> builder) {
        this.queue = builder.queue;
        this.handler = builder.handler;
        this.permanentErrors = List.copyOf(builder.permanentErrors);
        this.heartbeatInterval = builder.heartbeatInterval;
        this.pollNanos = builder.pollInterval.toNanos();
        this.concurrency = builder.concurrency;
        this.shutdownTimeout = builder.shutdownTimeout;
        this.observer = builder.observer;
        this.name = builder.name != null ? builder.name : queue.name();
        this.feed = new JobFeed<>(queue, concurrency, pollNanos, () -> state != State.RUNNING);
        this.settler = new Settler<>(queue, this.name, this::report);
    }

    /**
     * Starts configuring a worker for a queue.
     *
     * @param queue the queue to work; the worker does not close it
     * @param handler the work for each job
     * @param <T> the payload type
     * @return a builder
     */
    public static <T> Builder<T> builder(SimpleQueue<T> queue, JobHandler<T> handler) {
        if (queue == null) {
            throw new IllegalArgumentException("queue must not be null");
        }
        if (handler == null) {
            throw new IllegalArgumentException("handler must not be null");
        }
        return new Builder<>(queue, handler);
    }

    /**
     * Works the queue on {@code concurrency} threads until {@link #stop()} is called (from another thread) or
     * the queue is closed, then returns once running handlers have finished or the shutdown timeout has passed.
     *
     * @throws IllegalStateException when the worker was already started
     */
    public void run() {
        start();
        try {
            terminated.await();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stop();
        }
        Throwable failure = fatal.get();
        if (failure instanceof Error error) {
            throw error;
        }
    }

    /**
     * Starts working the queue on background threads and returns at once.
     *
     * @throws IllegalStateException when the worker was already started
     */
    public void start() {
        synchronized (lifecycle) {
            if (state != State.NEW) {
                throw new IllegalStateException("worker for queue '" + name + "' was already started");
            }
            ExecutorService threads = Executors.newFixedThreadPool(concurrency,
                    threadFactory("localqueue-worker-" + name + "-"));
            pollers = threads;
            livePollers.set(concurrency);
            state = State.RUNNING;
            settler.start();
            for (int i = 0; i < concurrency; i++) {
                threads.execute(this::pollLoop);
            }
        }
    }

    /**
     * Claims and handles one job on the calling thread, without waiting for one.
     *
     * @return false when no job was available
     */
    public boolean runOnce() {
        Job<T> job;
        try {
            job = queue.getNowait();
        } catch (QueueEmptyException empty) {
            return false;
        }
        process(job);
        return true;
    }

    /**
     * Stops claiming and waits up to the shutdown timeout for running handlers to finish and settle their jobs;
     * idempotent. Jobs whose handlers are still running afterwards stay leased and are delivered again once their
     * leases expire: none is lost, none is acknowledged twice.
     *
     * @return true when every running handler finished in time
     */
    public boolean stop() {
        return stop(shutdownTimeout);
    }

    /**
     * Stops like {@link #stop()}, waiting at most {@code timeout} for running handlers.
     *
     * @param timeout how long to wait, zero or more
     * @return true when every running handler finished in time
     */
    public boolean stop(Duration timeout) {
        long timeoutNanos = Durations.timeoutNanos(timeout, "timeout");
        ExecutorService threads;
        synchronized (lifecycle) {
            if (state == State.NEW) {
                state = State.STOPPED;
                shutdownHeartbeats();
                terminated.countDown();
                return true;
            }
            if (state == State.RUNNING) {
                state = State.STOPPING;
            }
            threads = pollers;
        }
        queue.wakeWaiters();
        feed.wake();
        boolean finished = true;
        if (threads != null) {
            threads.shutdown();
            try {
                finished = threads.awaitTermination(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                finished = false;
            }
            if (!finished) {
                abandoned = true;
                log.warn("Worker '{}' on queue '{}' stopped with {} handler(s) still running; their jobs stay leased "
                        + "and will be delivered again when the leases expire", name, queue.name(), active.get());
                threads.shutdownNow();
            }
        }
        settler.drainAndStop();
        feed.releaseAll();
        synchronized (lifecycle) {
            state = State.STOPPED;
            shutdownHeartbeats();
        }
        terminated.countDown();
        return finished;
    }

    /**
     * Stops the worker like {@link #stop()}.
     */
    @Override
    public void close() {
        stop();
    }

    /**
     * Returns whether the worker is claiming jobs.
     *
     * @return true between {@code start()} and {@code stop()}
     */
    public boolean isRunning() {
        return state == State.RUNNING;
    }

    /**
     * Returns how many handlers are running right now.
     *
     * @return the number of jobs in hand
     */
    public int activeJobs() {
        return active.get();
    }

    /**
     * Returns the queue this worker works.
     *
     * @return the queue
     */
    public SimpleQueue<T> queue() {
        return queue;
    }

    private void pollLoop() {
        try {
            while (state == State.RUNNING) {
                Job<T> job;
                try {
                    job = feed.next();
                } catch (QueueClosedException closed) {
                    log.info("Queue '{}' was closed; worker '{}' stops", queue.name(), name);
                    return;
                } catch (LocalQueueException | IllegalStateException failure) {
                    log.warn("Worker '{}' failed to claim from queue '{}'; trying again", name, queue.name(), failure);
                    pause();
                    continue;
                }
                if (job != null) {
                    process(job);
                }
            }
        } catch (Error error) {
            fatal.compareAndSet(null, error);
            log.error("Worker '{}' on queue '{}' stops after a fatal error", name, queue.name(), error);
            synchronized (lifecycle) {
                if (state == State.RUNNING) {
                    state = State.STOPPING;
                }
            }
            queue.wakeWaiters();
        } finally {
            if (livePollers.decrementAndGet() == 0) {
                finish();
            }
        }
    }

    /** The last poller has left, on its own (queue closed, fatal error) or after a stop: the worker is over. */
    private void finish() {
        synchronized (lifecycle) {
            if (state != State.STOPPED) {
                settler.drainAndStop();
                feed.releaseAll();
                state = State.STOPPED;
                shutdownHeartbeats();
                ExecutorService threads = pollers;
                if (threads != null) {
                    threads.shutdown();
                }
                terminated.countDown();
            }
        }
    }

    /** Runs the handler, then settles the job on the settler thread (or, without one, on this thread). */
    private void process(Job<T> job) {
        active.incrementAndGet();
        Delivery<T> delivery = new Delivery<>(job);
        ScheduledFuture<?> beat = scheduleHeartbeat(delivery);
        long start = System.nanoTime();
        Throwable error = null;
        try {
            handler.handle(job);
        } catch (Throwable thrown) {
            error = thrown;
        } finally {
            delivery.settling = true;
            if (beat != null) {
                beat.cancel(false);
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        feed.handled(took);
        Throwable thrown = error;
        if (delivery.leaseLost) {
            log.warn("Lease of job {} in queue '{}' was lost while its handler ran; its result is discarded",
                    job.id(), queue.name());
            finished(job, JobOutcome.DISCARDED, took, thrown);
        } else if (thrown != null && abandoned) {
            // The stop interrupted this handler: its failure is the stop's doing, not the job's. The job stays
            // leased and is delivered again after its lease, without spending a delivery on the interruption.
            log.warn("Job {} in queue '{}' was interrupted by the worker stopping; it will be delivered again after "
                    + "its lease", job.id(), queue.name());
            finished(job, JobOutcome.DISCARDED, took, thrown);
        } else {
            settler.submit(new Settler.Pending<>(job, settlementOf(job, thrown), took, thrown));
        }
        if (thrown instanceof VirtualMachineError vmError) {
            throw vmError;
        }
    }

    private Settlement settlementOf(Job<T> job, @Nullable Throwable error) {
        if (error == null) {
            return new Settlement(job.id(), job.receipt(), Settlement.Kind.ACK, null, null);
        }
        String lastError = Errors.describe(error);
        return isPermanent(error)
                ? new Settlement(job.id(), job.receipt(), Settlement.Kind.DEAD_LETTER, lastError,
                        FailureReason.PERMANENT_HANDLER_ERROR)
                : new Settlement(job.id(), job.receipt(), Settlement.Kind.RETRY, lastError, null);
    }

    /** Reports a committed settlement: logs what deserves it and tells the observer. */
    private void report(Settler.Pending<T> pending, Settlement.Result result) {
        Job<T> job = pending.job();
        Throwable error = pending.error();
        String queueName = queue.name();
        JobOutcome outcome = switch (result) {
            case ACKED -> JobOutcome.ACKED;
            case RETRIED -> {
                log.warn("Job {} in queue '{}' failed on delivery {}; it will be retried: {}", job.id(), queueName,
                        job.attempts() + 1, pending.settlement().lastError());
                yield JobOutcome.RETRIED;
            }
            case DEAD_LETTERED -> {
                if (pending.settlement().kind() == Settlement.Kind.DEAD_LETTER) {
                    log.error("Job {} in queue '{}' failed permanently and is now a dead letter", job.id(), queueName,
                            error);
                } else {
                    log.error("Job {} in queue '{}' failed on its last delivery ({} of {}) and is now a dead letter",
                            job.id(), queueName, job.attempts() + 1, queue.delivery().maxAttempts(), error);
                }
                yield JobOutcome.DEAD_LETTERED;
            }
            case LEASE_LOST -> {
                log.warn("Lease of job {} in queue '{}' expired before its result was recorded; the result is "
                        + "discarded and the job will be delivered again", job.id(), queueName);
                yield JobOutcome.DISCARDED;
            }
        };
        finished(job, outcome, pending.handlerTime(), error);
    }

    private void finished(Job<T> job, JobOutcome outcome, Duration took, @Nullable Throwable error) {
        try {
            notifyObserver(job, outcome, took, error);
        } finally {
            active.decrementAndGet();
        }
    }

    private boolean isPermanent(Throwable error) {
        for (Class<? extends Throwable> type : permanentErrors) {
            if (type.isInstance(error)) {
                return true;
            }
        }
        return false;
    }

    private @Nullable ScheduledFuture<?> scheduleHeartbeat(Delivery<T> delivery) {
        Duration interval = heartbeatInterval;
        if (interval == null) {
            return null;
        }
        long nanos = interval.toNanos();
        return heartbeats().scheduleWithFixedDelay(() -> beat(delivery), nanos, nanos, TimeUnit.NANOSECONDS);
    }

    private void beat(Delivery<T> delivery) {
        if (delivery.settling || delivery.leaseLost) {
            return;
        }
        try {
            queue.extendLease(delivery.job, queue.delivery().lease());
        } catch (LeaseExpiredException | QueueClosedException lost) {
            if (!delivery.settling) {
                delivery.leaseLost = true;
                log.warn("Lease of job {} in queue '{}' could not be renewed; the handler's result will be discarded",
                        delivery.job.id(), queue.name());
            }
            throw new LeaseLost();
        } catch (LocalQueueException failure) {
            log.warn("Renewing the lease of job {} in queue '{}' failed; trying again at the next heartbeat",
                    delivery.job.id(), queue.name(), failure);
        }
    }

    private ScheduledExecutorService heartbeats() {
        synchronized (lifecycle) {
            ScheduledExecutorService scheduler = heartbeats;
            if (scheduler == null) {
                scheduler = Executors.newSingleThreadScheduledExecutor(
                        threadFactory("localqueue-heartbeat-" + name + "-"));
                heartbeats = scheduler;
            }
            return scheduler;
        }
    }

    private void shutdownHeartbeats() {
        ScheduledExecutorService scheduler = heartbeats;
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    private void notifyObserver(Job<T> job, JobOutcome outcome, Duration took, @Nullable Throwable error) {
        try {
            observer.jobFinished(job, outcome, took, error);
        } catch (RuntimeException failure) {
            log.warn("Worker observer failed for job {} in queue '{}'", job.id(), queue.name(), failure);
        }
    }

    private void pause() {
        try {
            terminated.await(ERROR_PAUSE_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory threadFactory(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One job in hand: its lease state is shared between the handler thread and the heartbeat. */
    private static final class Delivery<T> {
        final Job<T> job;
        volatile boolean settling;
        volatile boolean leaseLost;

        Delivery(Job<T> job) {
            this.job = job;
        }
    }

    /** Ends a heartbeat's repetitions once its lease is gone. */
    private static final class LeaseLost extends RuntimeException {
        LeaseLost() {
            super("lease lost", null, false, false);
        }
    }

    /**
     * Configures a {@link Worker}; every setter validates at once and names the bad parameter.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {

        private final SimpleQueue<T> queue;
        private final JobHandler<T> handler;
        private final List<Class<? extends Throwable>> permanentErrors = new ArrayList<>();
        private @Nullable Duration heartbeatInterval;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private int concurrency = 1;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private WorkerObserver observer = WorkerObserver.NONE;
        private @Nullable String name;

        private Builder(SimpleQueue<T> queue, JobHandler<T> handler) {
            this.queue = queue;
            this.handler = handler;
        }

        /**
         * Makes the given exception types (and their subclasses) dead-letter a job at once instead of retrying it.
         *
         * @param types exception classes
         * @return this builder
         */
        @SafeVarargs
        public final Builder<T> permanentErrors(Class<? extends Throwable>... types) {
            if (types == null) {
                throw new IllegalArgumentException("permanentErrors must not be null");
            }
            for (Class<? extends Throwable> type : types) {
                if (type == null) {
                    throw new IllegalArgumentException("permanentErrors must not contain null");
                }
                permanentErrors.add(type);
            }
            return this;
        }

        /**
         * Renews each running job's lease this often, so handlers may run longer than one lease; must be shorter
         * than the queue's lease (a third of it is a good choice). Default: no renewal.
         *
         * @param interval the renewal interval, positive and shorter than the lease
         * @return this builder
         */
        public Builder<T> heartbeatInterval(Duration interval) {
            Durations.requirePositiveMillis(interval, "heartbeatInterval");
            if (interval.compareTo(queue.delivery().lease()) >= 0) {
                throw new IllegalArgumentException("heartbeatInterval must be smaller than the queue lease ("
                        + queue.delivery().lease() + "), got " + interval);
            }
            this.heartbeatInterval = interval;
            return this;
        }

        /**
         * Sets how long a claiming thread waits for a job before looking again; new jobs wake it earlier.
         * Default one second.
         *
         * @param interval the wait, positive
         * @return this builder
         */
        public Builder<T> pollInterval(Duration interval) {
            Durations.requirePositiveMillis(interval, "pollInterval");
            this.pollInterval = interval;
            return this;
        }

        /**
         * Sets how many handlers run at once, each on its own thread. Default 1.
         *
         * @param concurrency at least 1
         * @return this builder
         */
        public Builder<T> concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * Sets how long {@code stop()} waits for running handlers. Default 30 seconds.
         *
         * @param timeout zero or more
         * @return this builder
         */
        public Builder<T> shutdownTimeout(Duration timeout) {
            Durations.timeoutNanos(timeout, "shutdownTimeout");
            this.shutdownTimeout = timeout;
            return this;
        }

        /**
         * Sets who is told about each finished delivery, for metrics.
         *
         * @param observer the observer
         * @return this builder
         */
        public Builder<T> observer(WorkerObserver observer) {
            if (observer == null) {
                throw new IllegalArgumentException("observer must not be null");
            }
            this.observer = observer;
            return this;
        }

        /**
         * Names the worker in thread names and logs. Default: the queue name.
         *
         * @param name a non-blank name
         * @return this builder
         */
        public Builder<T> name(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Creates the worker, not yet started.
         *
         * @return the worker
         */
        public Worker<T> build() {
            return new Worker<>(this);
        }
    }
}
