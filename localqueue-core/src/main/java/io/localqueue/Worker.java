package io.localqueue;

import io.localqueue.internal.consumer.ClaimFeed;
import io.localqueue.internal.consumer.ClaimSource;
import io.localqueue.internal.consumer.ConsumerRuntime;
import io.localqueue.internal.consumer.FailurePolicy;
import io.localqueue.internal.consumer.Heartbeats;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
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
 * <p>Claims and settlement live in the engine beneath; threads, batched claims, heartbeats, pause and stop in the
 * consumer runtime a bus subscription runs on too, which judges a handler's result by the same rule; this class
 * adapts jobs to it, and most of its length is the documentation of it and of its builder.
 *
 * @param <T> the payload type
 * @since 0.1.0
 */
public final class Worker<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Worker.class);

    /** How long {@code run()} waits for a job before looking again, unless configured. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /** How long a stop waits, after interrupting the handlers still running, for them to hand their jobs back. */
    static final long INTERRUPT_GRACE_MS = 1_000;

    /** How long {@code stop()} lets running handlers finish, unless configured. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How many handlers run at once, unless configured.
     *
     * @since 0.1.0
     */
    public static final int DEFAULT_CONCURRENCY = 1;

    /**
     * How many heartbeats fit in one lease where heartbeats are on by default (Spring's listeners): the interval is
     * the lease divided by this, see {@link #defaultHeartbeatInterval(Duration)}.
     *
     * @since 0.1.0
     */
    public static final int HEARTBEATS_PER_LEASE = 3;

    /**
     * How many jobs a worker claims ahead of its threads unless set: beyond one for each idle thread, at most this many
     * claimed jobs wait in the worker for a thread, leased to this process and out of reach of other consumers.
     *
     * @since 0.1.0
     */
    public static final int DEFAULT_PREFETCH = 64;

    /**
     * The largest prefetch a worker may be given.
     *
     * @since 0.1.0
     */
    public static final int MAX_PREFETCH = ClaimFeed.MAX_BATCH;

    /**
     * The batch size of a batch worker unless set.
     *
     * @since 0.1.0
     */
    public static final int DEFAULT_BATCH_SIZE = 100;

    /**
     * The largest batch a batch worker may take.
     *
     * @since 0.1.0
     */
    public static final int MAX_BATCH_SIZE = 1_000;


    private final SimpleQueue<T> queue;
    private final QueueEngine engine;
    private final QueueJobs<T> decoding;
    private final @Nullable JobHandler<T> handler;
    private final @Nullable Batches<T> batches;
    private final Duration shutdownTimeout;
    private final String name;
    private final ConsumerRuntime<?> runtime;
    private final Outcomes<T> outcomes;

    private Worker(Builder<T> builder) {
        this.queue = builder.queue;
        this.decoding = queue.jobs();
        this.engine = decoding.engine();
        this.handler = builder.handler;
        this.batches = builder.batchHandler == null ? null
                : new Batches<>(builder.batchHandler, builder.batchSize, builder.batchWait.toNanos());
        this.shutdownTimeout = builder.shutdownTimeout;
        this.name = builder.name != null ? builder.name : queue.name();
        long pollNanos = builder.pollInterval.toNanos();
        Batches<T> batching = batches;
        this.runtime = batching == null
                ? runtime(builder, stop -> new ClaimFeed(engine, queue.name(), builder.concurrency, pollNanos,
                        queue.delivery().lease(), builder.prefetch, stop), this::handle)
                : runtime(builder, stop -> batching.source(engine, pollNanos, stop), this::handleBatch);
        this.outcomes = new Outcomes<>(queue, new FailurePolicy(builder.permanentErrors, builder.retry, "",
                FailureReason.RETRIES_EXHAUSTED), builder.observer, this::jobFinished, runtime.reports(), log);
    }

    private <U> ConsumerRuntime<U> runtime(Builder<T> builder, Function<BooleanSupplier, ClaimSource<U>> source,
                                           ConsumerRuntime.Consumption<U> consumption) {
        return ConsumerRuntime.<U>builder(log, "worker '" + name + "'", engine)
                .threads(builder.concurrency, builder.executor, "localqueue-worker-" + name + "-")
                .heartbeats(builder.heartbeatInterval, "localqueue-heartbeat-" + name + "-")
                .reports("localqueue-report-" + name, builder.observer == WorkerObserver.NONE ? "the log"
                        : "observer " + builder.observer)
                .source(source)
                .consumption(consumption)
                .leaseExpired(this::leaseExpired)
                .build();
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
        Builder.requireQueue(queue);
        if (handler == null) {
            throw new InvalidArgumentException("handler", "handler must not be null");
        }
        return new Builder<>(queue, handler, null);
    }

    /**
     * Starts configuring a worker that hands its handler batches of jobs ({@link Builder#batchSize},
     * {@link Builder#batchWait}); each thread claims and runs one batch at a time.
     *
     * @param queue the queue to work; the worker does not close it
     * @param handler the work for each batch
     * @param <T> the payload type
     * @return a builder
     * @throws IllegalArgumentException when either is null
     * @since 0.1.0
     */
    public static <T> Builder<T> batchBuilder(SimpleQueue<T> queue, BatchJobHandler<T> handler) {
        Builder.requireQueue(queue);
        if (handler == null) {
            throw new InvalidArgumentException("handler", "handler must not be null");
        }
        return new Builder<>(queue, null, handler);
    }

    /**
     * Returns the heartbeat interval used where heartbeats are on by default: a third of the lease
     * ({@value #HEARTBEATS_PER_LEASE} heartbeats per lease); zero for a lease under three nanoseconds.
     *
     * @param lease the queue's lease
     * @return the interval
     * @since 0.1.0
     */
    public static Duration defaultHeartbeatInterval(Duration lease) {
        if (lease == null) {
            throw new InvalidArgumentException("lease", "lease must not be null");
        }
        return lease.dividedBy(HEARTBEATS_PER_LEASE);
    }

    /**
     * Works the queue on {@code concurrency} threads until {@link #stop()} is called (from another thread) or
     * the queue is closed, then returns once running handlers have finished or the shutdown timeout has passed.
     *
     * @throws IllegalStateException when the worker was already started
     */
    public void run() {
        start();
        Throwable failure;
        try {
            failure = runtime.awaitStopped();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stop();
            return;
        }
        if (failure instanceof Error error) {
            throw error;
        }
    }

    /**
     * Starts working the queue on background threads and returns at once.
     *
     * @throws IllegalStateException when the worker was already started, or its executor refused a thread
     */
    public void start() {
        runtime.start();
    }

    /**
     * Claims and handles one job (a batch worker: one batch of what is due) on the calling thread, without waiting
     * for one; its outcome is recorded, and its observer told, before this returns. A job whose payload cannot be
     * decoded counts as handled: it became a dead letter.
     *
     * @return false when no job was available
     */
    public boolean runOnce() {
        if (batches != null) {
            List<ClaimedRow> rows = engine.claim(0, batches.size(), () -> false);
            if (rows.isEmpty()) {
                return false;
            }
            handleBatch(rows);
            runtime.reportEverything();
            return true;
        }
        List<ClaimedRow> rows;
        try {
            rows = engine.claim(0, 1, () -> false);
        } catch (QueueEmptyException lockTaken) {
            return false;
        }
        if (rows.isEmpty()) {
            return false;
        }
        handle(rows.get(0));
        runtime.reportEverything();
        return true;
    }

    /**
     * Stops claiming and waits up to the shutdown timeout for running handlers to finish and settle their jobs;
     * idempotent. Handlers still running then are interrupted and given up to {@value #INTERRUPT_GRACE_MS} ms to end:
     * the job of one that ends is handed back at once without spending a delivery ({@link JobOutcome#RELEASED}); one
     * that keeps running keeps its lease, and its job is delivered again once that expires. None is lost, none is
     * acknowledged twice.
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
        Durations.timeoutNanos(timeout, "timeout");
        return runtime.stop(timeout, Duration.ofMillis(INTERRUPT_GRACE_MS));
    }

    /**
     * Stops the worker like {@link #stop()}.
     */
    @Override
    public void close() {
        stop();
    }

    /**
     * Stops claiming until {@link #resume()}, without waiting: running handlers finish and settle as usual, and jobs
     * claimed but not yet started go back to the queue without spending a delivery. Pausing a worker not yet
     * started makes it start paused; idempotent.
     *
     * @since 0.1.0
     */
    public void pause() {
        runtime.pause();
    }

    /**
     * Lets a paused worker claim again; does nothing when it is not paused.
     *
     * @since 0.1.0
     */
    public void resume() {
        runtime.resume();
    }

    /**
     * Returns whether the worker is paused; a paused worker is still running.
     *
     * @return true between {@link #pause()} and {@link #resume()}
     * @since 0.1.0
     */
    public boolean isPaused() {
        return runtime.isPaused();
    }

    /**
     * Returns whether the worker is claiming jobs.
     *
     * @return true between {@code start()} and {@code stop()}
     */
    public boolean isRunning() {
        return runtime.isRunning();
    }

    /**
     * Returns how many handlers are running right now.
     *
     * @return the number of jobs in hand
     */
    public int activeJobs() {
        return runtime.active();
    }

    /**
     * Returns the queue this worker works.
     *
     * @return the queue
     */
    public SimpleQueue<T> queue() {
        return queue;
    }

    private void jobFinished() {
        runtime.done(1);
    }

    private void leaseExpired(ExpiredLease lease) {
        outcomes.leaseExpired(lease);
    }

    private void handle(ClaimedRow row) {
        Job<T> job = decoding.jobOrDeadLetter(row, outcomes::undecodable);
        if (job != null) {
            process(job);
        }
    }

    /** Runs the handler, then hands its outcome to the engine, which reports it once committed. */
    private void process(Job<T> job) {
        runtime.took(1);
        Heartbeats.Beat beat = runtime.heartbeats().start(() -> queue.extendLease(job, queue.delivery().lease()),
                job.id(), queue.name());
        long start = System.nanoTime();
        Throwable error = null;
        boolean leaseLost;
        try {
            requireHandler().handle(job);
        } catch (Throwable thrown) {
            error = thrown;
        } finally {
            leaseLost = beat.stop();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        runtime.source().handled(took);
        settle(job, error, leaseLost, took);
        if (error instanceof VirtualMachineError vmError) {
            throw vmError;
        }
    }

    /** Decodes a claimed batch, dropping the jobs that cannot be decoded, and runs what is left. */
    private void handleBatch(List<ClaimedRow> rows) {
        List<Job<T>> jobs = new ArrayList<>(rows.size());
        for (ClaimedRow row : rows) {
            Job<T> job = decoding.jobOrDeadLetter(row, outcomes::undecodable);
            if (job != null) {
                jobs.add(job);
            }
        }
        if (!jobs.isEmpty()) {
            processBatch(jobs);
        }
    }

    /** Runs the batch handler, then settles each job by its share of the result. */
    private void processBatch(List<Job<T>> jobs) {
        Batches<T> batch = Objects.requireNonNull(batches);
        runtime.took(jobs.size());
        List<Heartbeats.Beat> beats = new ArrayList<>(jobs.size());
        for (Job<T> job : jobs) {
            beats.add(runtime.heartbeats().start(() -> queue.extendLease(job, queue.delivery().lease()), job.id(),
                    queue.name()));
        }
        long start = System.nanoTime();
        Throwable error = null;
        boolean[] leaseLost = new boolean[jobs.size()];
        try {
            batch.handler().handle(Collections.unmodifiableList(jobs));
        } catch (Throwable thrown) {
            error = thrown;
        } finally {
            for (int i = 0; i < beats.size(); i++) {
                leaseLost[i] = beats.get(i).stop();
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        for (int i = 0; i < jobs.size(); i++) {
            settle(jobs.get(i), Batches.errorOf(i, jobs.size(), error), leaseLost[i], took);
        }
        if (error instanceof VirtualMachineError vmError) {
            throw vmError;
        }
    }

    private JobHandler<T> requireHandler() {
        return Objects.requireNonNull(handler);
    }

    /** Hands one job's outcome to the engine, unless its handler settled it or its lease was lost meanwhile. */
    private void settle(Job<T> job, @Nullable Throwable error, boolean leaseLost, Duration took) {
        HandlerSettlement settledByHandler = job.settled();
        if (settledByHandler != null) {
            outcomes.settledByHandler(job, settledByHandler, took, error);
        } else if (leaseLost) {
            log.warn("Lease of job {} in queue '{}' was lost while its handler ran; its result is discarded",
                    job.id(), queue.name());
            outcomes.discard(job, took, error);
        } else if (error != null && runtime.abandoned()) {
            outcomes.release(job, took, error);
        } else {
            outcomes.settle(job, error, took);
        }
    }

    /**
     * Configures a {@link Worker}; every setter validates at once and names the bad parameter.
     *
     * @param <T> the payload type
     *
     * @since 0.1.0
     */
    public static final class Builder<T> {

        private final SimpleQueue<T> queue;
        private final @Nullable JobHandler<T> handler;
        private final @Nullable BatchJobHandler<T> batchHandler;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private Duration batchWait = Duration.ZERO;
        private final List<Class<? extends Throwable>> permanentErrors = new ArrayList<>();
        private @Nullable Duration heartbeatInterval;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private int concurrency = DEFAULT_CONCURRENCY;
        private int prefetch = DEFAULT_PREFETCH;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private WorkerObserver observer = WorkerObserver.NONE;
        private @Nullable String name;
        private @Nullable Executor executor;
        private @Nullable RetryPolicy retry;

        private Builder(SimpleQueue<T> queue, @Nullable JobHandler<T> handler,
                        @Nullable BatchJobHandler<T> batchHandler) {
            this.queue = queue;
            this.handler = handler;
            this.batchHandler = batchHandler;
        }

        private static void requireQueue(@Nullable SimpleQueue<?> queue) {
            if (queue == null) {
                throw new InvalidArgumentException("queue", "queue must not be null");
            }
        }

        /**
         * Sets the most jobs in one batch of a batch worker. Default {@value Worker#DEFAULT_BATCH_SIZE}.
         *
         * @param size 1 to {@value Worker#MAX_BATCH_SIZE}
         * @return this builder
         * @throws IllegalStateException when the worker handles single jobs
         * @since 0.1.0
         */
        public Builder<T> batchSize(int size) {
            requireBatches("batchSize");
            if (size < 1 || size > MAX_BATCH_SIZE) {
                throw new InvalidArgumentException("batchSize", "batchSize must be between 1 and " + MAX_BATCH_SIZE + ", got "
                        + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * Sets how long a batch worker that claimed fewer jobs than its batch size waits for more before running
         * the batch; its jobs' leases run meanwhile, so the wait must stay under half the queue's lease. Default
         * zero: a batch is what was due at once.
         *
         * @param wait zero or more, under half the lease
         * @return this builder
         * @throws IllegalStateException when the worker handles single jobs
         * @since 0.1.0
         */
        public Builder<T> batchWait(Duration wait) {
            requireBatches("batchWait");
            Durations.timeoutNanos(wait, "batchWait");
            Duration lease = queue.delivery().lease();
            if (wait.multipliedBy(2).compareTo(lease) >= 0) {
                throw new InvalidArgumentException("batchWait", "batchWait must be under half the queue lease (" + lease
                        + "), got " + wait);
            }
            this.batchWait = wait;
            return this;
        }

        private void requireBatches(String setting) {
            if (batchHandler == null) {
                throw new IllegalStateException(setting + " needs a worker made by Worker.batchBuilder");
            }
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
                throw new InvalidArgumentException("permanentErrors", "permanentErrors must not be null");
            }
            for (Class<? extends Throwable> type : types) {
                if (type == null) {
                    throw new InvalidArgumentException("permanentErrors", "permanentErrors must not contain null");
                }
                permanentErrors.add(type);
            }
            return this;
        }

        /**
         * Waits between a failed delivery and the next one as {@code policy} says (default: no wait); a handler's
         * {@link RetryLaterException} picks its own wait instead. The budget is stored with each job when it is
         * put, from the queue's {@link DeliveryPolicy}, so the policy must allow as many deliveries.
         *
         * @param policy the waits between deliveries
         * @return this builder
         * @throws IllegalArgumentException when null, or when its {@code maxAttempts} differs from the queue's
         * @since 0.1.0
         */
        public Builder<T> retry(RetryPolicy policy) {
            if (policy == null) {
                throw new InvalidArgumentException("retry", "retry must not be null");
            }
            int budget = queue.delivery().maxAttempts();
            if (policy.maxAttempts() != budget) {
                throw new IllegalArgumentException("retry allows " + policy.maxAttempts() + " deliveries but queue '"
                        + queue.name() + "' stores a budget of " + budget + " (maxRetries " + (budget - 1)
                        + ") with each job; give both the same number");
            }
            this.retry = policy;
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
                throw new InvalidArgumentException("heartbeatInterval", "heartbeatInterval must be smaller than the queue lease ("
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
                throw new InvalidArgumentException("concurrency", "concurrency must be at least 1, got " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * Sets how many jobs the worker may claim ahead of its threads: beyond one for each idle thread, at most this
         * many claimed jobs wait in the worker, which saves claims while handlers are quick but keeps those jobs from
         * other consumers until a thread here takes them; 0 claims only for idle threads. A batch worker claims
         * only its batches, so this does not apply to it. Default {@value Worker#DEFAULT_PREFETCH}.
         *
         * @param prefetch 0 to {@value Worker#MAX_PREFETCH}
         * @return this builder
         * @since 0.1.0
         */
        public Builder<T> prefetch(int prefetch) {
            this.prefetch = ClaimFeed.requirePrefetch(prefetch, "prefetch");
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
                throw new InvalidArgumentException("observer", "observer must not be null");
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
                throw new InvalidArgumentException("name", "name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Runs the worker's threads on {@code executor} instead of threads of its own, for example virtual threads;
         * the executor must run {@code concurrency} long-lived tasks at once (a thread-per-task executor does, a
         * bounded pool smaller than that starves the worker), and the worker never shuts it down. Default: a fixed
         * pool of daemon threads named after the worker.
         *
         * @param executor the executor
         * @return this builder
         * @since 0.1.0
         */
        public Builder<T> executor(Executor executor) {
            if (executor == null) {
                throw new InvalidArgumentException("executor", "executor must not be null");
            }
            this.executor = executor;
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
