package io.localqueue.internal.consumer;

import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ExpiredLease;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The threads of one consumer of a queue, a {@code Worker} or a bus subscription's: each takes work from the
 * consumer's {@link ClaimSource} and hands it to the consumer's {@link Consumption}, waits out failing claims in a
 * back-off that a stop ends at once, logging them once for all threads ({@link ClaimTrouble}), and owns the lease
 * heartbeats and the report lane its handlers use. A pause stops the claims and hands back what no thread started;
 * a stop stops the claims, waits for running handlers until a deadline, interrupts those still running, and then
 * records every settlement and hands back what is left. A fatal error of a handler stops the consumer.
 *
 * @param <U> what one thread takes and runs at once: a job, or a batch
 */
public final class ConsumerRuntime<U> {

    /** The longest a stop, or a caller of {@link #reportEverything()}, waits for the observers to be told. */
    public static final Duration REPORTS_WAIT = Duration.ofSeconds(2);

    /** How one thread runs the work it took: the handler, then its settlement. */
    @FunctionalInterface
    public interface Consumption<U> {

        /**
         * Runs the work.
         *
         * @param unit what the thread took
         */
        void consume(U unit);
    }

    private enum State { NEW, RUNNING, STOPPING, STOPPED }

    private final Logger log;
    private final String name;
    private final String queue;
    private final QueueEngine engine;
    private final int concurrency;
    private final @Nullable Executor executor;
    private final String threadPrefix;
    private final ClaimSource<U> source;
    private final Consumption<U> consumption;
    private final Consumer<ExpiredLease> leaseExpired;
    private final Runnable afterStop;
    private final Heartbeats heartbeats;
    private final ReportLane reports;
    private final ClaimTrouble trouble;
    private final Object lifecycle = new Object();
    private final Object pauseMonitor = new Object();
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** Opens when a stop begins, ending the back-off of threads whose claims failed. */
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch threadsLeft;
    private final AtomicInteger liveThreads = new AtomicInteger();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicLong lastBusy = new AtomicLong(System.nanoTime());
    private final AtomicReference<@Nullable Throwable> fatal = new AtomicReference<>();
    private volatile State state = State.NEW;
    private volatile boolean paused;
    /** Set once a stop gave up waiting and interrupted the handlers still running. */
    private volatile boolean abandoned;
    private @Nullable ExecutorService ownThreads;
    private Runnable stopObservingExpiries = () -> { };

    private ConsumerRuntime(Builder<U> builder) {
        this.log = builder.log;
        this.name = builder.name;
        this.queue = builder.engine.queueName();
        this.engine = builder.engine;
        this.concurrency = builder.concurrency;
        this.executor = builder.executor;
        this.threadPrefix = builder.threadPrefix;
        this.consumption = java.util.Objects.requireNonNull(builder.consumption);
        this.leaseExpired = builder.leaseExpired;
        this.afterStop = builder.afterStop;
        this.threadsLeft = new CountDownLatch(concurrency);
        this.heartbeats = new Heartbeats(builder.heartbeatInterval, daemon(builder.heartbeatThreadPrefix), log);
        this.reports = new ReportLane(log, name + " on queue '" + queue + "'", builder.reportThread, builder.reportsTo);
        this.trouble = new ClaimTrouble(log, sentence(name), queue);
        this.source = builder.source.apply(this::claimsStop);
    }

    /**
     * Starts describing a consumer.
     *
     * @param log where the consumer logs
     * @param name the consumer as a log line names it: {@code worker 'emails'}; lines add its queue
     * @param engine the queue it consumes
     * @param <U> what one thread takes and runs at once
     * @return a builder
     */
    public static <U> Builder<U> builder(Logger log, String name, QueueEngine engine) {
        return new Builder<>(log, name, engine);
    }

    /** Returns the consumer's source of work. */
    public ClaimSource<U> source() {
        return source;
    }

    /** Returns the lease heartbeats of its handlers. */
    public Heartbeats heartbeats() {
        return heartbeats;
    }

    /** Returns the lane its outcomes are reported on. */
    public ReportLane reports() {
        return reports;
    }

    /**
     * Starts the consumer's threads.
     *
     * @throws IllegalStateException when it was started before, or its executor refused a thread
     */
    public void start() {
        synchronized (lifecycle) {
            if (state != State.NEW) {
                throw new IllegalStateException(name + " was already started");
            }
            Executor pool = executor;
            if (pool == null) {
                ExecutorService own = Executors.newFixedThreadPool(concurrency, daemon(threadPrefix));
                ownThreads = own;
                pool = own;
            }
            liveThreads.set(concurrency);
            stopObservingExpiries = engine.leaseExpiries().listen(leaseExpired);
            state = State.RUNNING;
            for (int i = 0; i < concurrency; i++) {
                try {
                    pool.execute(this::loop);
                } catch (RejectedExecutionException refused) {
                    state = State.STOPPING;
                    for (int unstarted = i; unstarted < concurrency; unstarted++) {
                        threadLeft();
                    }
                    throw new IllegalStateException("the executor of " + name + " refused to run "
                            + (concurrency - i) + " of its " + concurrency + " threads", refused);
                }
            }
        }
    }

    /**
     * Waits until the consumer stopped, by a stop or on its own.
     *
     * @return the fatal error that stopped it, or null
     * @throws InterruptedException when the wait is interrupted
     */
    public @Nullable Throwable awaitStopped() throws InterruptedException {
        terminated.await();
        return fatal.get();
    }

    /** Stops claiming until {@link #resume()}; running handlers go on, and what no thread started goes back. */
    public void pause() {
        paused = true;
        engine.wakeWaiters();
        source.wake();
    }

    /** Lets a paused consumer claim again. */
    public void resume() {
        synchronized (pauseMonitor) {
            paused = false;
            pauseMonitor.notifyAll();
        }
    }

    /** Returns whether the consumer is paused. */
    public boolean isPaused() {
        return paused;
    }

    /** Returns whether the consumer claims: between its start and its stop. */
    public boolean isRunning() {
        return state == State.RUNNING;
    }

    /** Returns whether a stop gave up waiting and interrupted the handlers still running. */
    public boolean abandoned() {
        return abandoned;
    }

    /** Returns how many jobs its handlers hold right now, counted by {@link #took(int)} and {@link #done(int)}. */
    public int active() {
        return active.get();
    }

    /**
     * Counts jobs into the handlers' hands.
     *
     * @param jobs how many
     */
    public void took(int jobs) {
        active.addAndGet(jobs);
    }

    /**
     * Counts jobs out of the handlers' hands.
     *
     * @param jobs how many
     */
    public void done(int jobs) {
        active.addAndGet(-jobs);
        lastBusy.set(System.nanoTime());
    }

    /**
     * Tells whether no handler ran for at least {@code nanos}.
     *
     * @param nanos the idle time
     * @return true when idle that long
     */
    public boolean idleFor(long nanos) {
        return active.get() == 0 && System.nanoTime() - lastBusy.get() >= nanos;
    }

    /**
     * Stops the consumer, waiting at most {@code timeout} for running handlers; idempotent.
     *
     * @param timeout how long running handlers may take
     * @param grace how long interrupted handlers then get to hand their jobs back
     * @return true when every running handler finished in time
     */
    public boolean stop(Duration timeout, Duration grace) {
        return stopAll(java.util.List.of(this), timeout, grace);
    }

    /**
     * Stops consumers within one wait: all stop claiming at once, then all get until {@code timeout} is over for
     * their running handlers, then those still running are interrupted together, get {@code grace} to hand their
     * jobs back, and every consumer records what its handlers settled and hands back what is left. So the stop of
     * many consumers takes no longer than the stop of one.
     *
     * @param consumers the consumers
     * @param timeout how long running handlers may take
     * @param grace how long interrupted handlers then get
     * @return true when every running handler finished in time
     */
    public static boolean stopAll(Collection<? extends ConsumerRuntime<?>> consumers, Duration timeout,
                                  Duration grace) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ConsumerRuntime<?> consumer : consumers) {
            consumer.stopClaiming();
        }
        boolean drained = true;
        for (ConsumerRuntime<?> consumer : consumers) {
            if (!consumer.awaitThreads(deadline)) {
                drained = false;
                consumer.abandon(timeout);
            }
        }
        long graceDeadline = System.nanoTime() + grace.toNanos();
        for (ConsumerRuntime<?> consumer : consumers) {
            if (consumer.abandoned && !consumer.awaitThreads(graceDeadline)) {
                consumer.log.warn("{} on queue '{}' stopped with {} handler(s) still running; their jobs stay leased and "
                        + "will be delivered again when the leases expire", sentence(consumer.name), consumer.queue,
                        consumer.active.get());
            }
        }
        long reportsDeadline = System.nanoTime() + REPORTS_WAIT.toNanos();
        for (ConsumerRuntime<?> consumer : consumers) {
            consumer.wrapUp(reportsDeadline);
        }
        return drained;
    }

    /**
     * Records every settlement handed over so far and waits a bounded time for the observers to be told of them.
     */
    public void reportEverything() {
        reportEverything(System.nanoTime() + REPORTS_WAIT.toNanos());
    }

    private void reportEverything(long deadlineNanos) {
        engine.flushSettlements();
        if (!reports.awaitReported(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())))) {
            log.warn("{} on queue '{}' did not wait longer than {} ms for its observers; they are still being told",
                    sentence(name), queue, REPORTS_WAIT.toMillis());
        }
    }

    private void stopClaiming() {
        synchronized (lifecycle) {
            if (state == State.NEW) {
                state = State.STOPPING;
                for (int never = 0; never < concurrency; never++) {
                    threadsLeft.countDown();
                }
            } else if (state == State.RUNNING) {
                state = State.STOPPING;
            }
        }
        stopRequested.countDown();
        synchronized (pauseMonitor) {
            pauseMonitor.notifyAll();
        }
        engine.wakeWaiters();
        source.wake();
    }

    private boolean awaitThreads(long deadlineNanos) {
        try {
            return threadsLeft.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return threadsLeft.getCount() == 0;
        }
    }

    private void abandon(Duration timeout) {
        abandoned = true;
        log.warn("{} on queue '{}' is stopping with {} handler(s) still running after {} ms; interrupting them",
                sentence(name), queue, active.get(), timeout.toMillis());
        threads.forEach(Thread::interrupt);
    }

    private void loop() {
        Thread current = Thread.currentThread();
        threads.add(current);
        try {
            while (state == State.RUNNING) {
                if (paused) {
                    awaitResume();
                    continue;
                }
                U unit;
                try {
                    unit = source.next();
                } catch (QueueClosedException closed) {
                    log.info("Queue '{}' was closed; {} stops", queue, name);
                    return;
                } catch (LocalQueueException | IllegalStateException failure) {
                    backOff(trouble.failed(failure));
                    continue;
                }
                if (unit != null || !source.lastClaimFailed()) {
                    trouble.succeeded();
                }
                if (unit != null) {
                    consumption.consume(unit);
                }
            }
        } catch (Error error) {
            fatal.compareAndSet(null, error);
            log.error("{} on queue '{}' stops after a fatal error", sentence(name), queue, error);
            synchronized (lifecycle) {
                if (state == State.RUNNING) {
                    state = State.STOPPING;
                }
            }
            engine.wakeWaiters();
            source.wake();
        } finally {
            threads.remove(current);
            Thread.interrupted();
            threadLeft();
        }
    }

    /** Whether claims should give up now: the consumer is stopping or paused. */
    private boolean claimsStop() {
        return state != State.RUNNING || paused;
    }

    /** Hands back what the consumer holds unstarted, then waits until resumed or stopping. */
    private void awaitResume() {
        source.releaseAll();
        synchronized (pauseMonitor) {
            while (paused && state == State.RUNNING) {
                try {
                    pauseMonitor.wait();
                } catch (InterruptedException interrupted) {
                    // only a stop interrupts the threads, and it changes the state first, which ends this wait
                    continue;
                }
            }
        }
    }

    /** Waits out a failed claim's back-off, or until a stop begins. */
    private void backOff(long millis) {
        try {
            stopRequested.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One thread has left; the last one, leaving on its own (queue closed, fatal error), ends the consumer. */
    private void threadLeft() {
        threadsLeft.countDown();
        if (liveThreads.decrementAndGet() == 0) {
            wrapUp(System.nanoTime() + REPORTS_WAIT.toNanos());
        }
    }

    /**
     * Records every outcome still pending, hands back what is left and marks the consumer stopped, once; its observers
     * are waited for until {@code reportsDeadlineNanos}, shared by the consumers that stop together.
     */
    private void wrapUp(long reportsDeadlineNanos) {
        synchronized (lifecycle) {
            if (state == State.STOPPED) {
                return;
            }
            try {
                source.releaseAll();
                reportEverything(reportsDeadlineNanos);
                stopObservingExpiries.run();
                afterStop.run();
            } finally {
                state = State.STOPPED;
                heartbeats.shutdown();
                ExecutorService own = ownThreads;
                if (own != null) {
                    own.shutdown();
                }
                terminated.countDown();
            }
        }
    }

    /** Starts a log line with the consumer's name: {@code Worker 'emails' …}. */
    private static String sentence(String name) {
        return name.isEmpty() ? name : Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Describes a {@link ConsumerRuntime}.
     *
     * @param <U> what one thread takes and runs at once
     */
    public static final class Builder<U> {

        private final Logger log;
        private final String name;
        private final QueueEngine engine;
        private int concurrency = 1;
        private @Nullable Executor executor;
        private String threadPrefix = "localqueue-consumer-";
        private @Nullable Duration heartbeatInterval;
        private String heartbeatThreadPrefix = "localqueue-heartbeat-";
        private String reportThread = "localqueue-report";
        private String reportsTo = "the log";
        private Function<BooleanSupplier, ClaimSource<U>> source = stop -> {
            throw new IllegalStateException("no source");
        };
        private @Nullable Consumption<U> consumption;
        private Consumer<ExpiredLease> leaseExpired = lease -> { };
        private Runnable afterStop = () -> { };

        private Builder(Logger log, String name, QueueEngine engine) {
            this.log = log;
            this.name = name;
            this.engine = engine;
        }

        /**
         * Sets how many threads run handlers, and the executor that runs them.
         *
         * @param concurrency one or more
         * @param executor the executor, or null for threads of the consumer's own named {@code threadPrefix} + n
         * @param threadPrefix the names of its own threads, followed by a number
         * @return this builder
         */
        public Builder<U> threads(int concurrency, @Nullable Executor executor, String threadPrefix) {
            this.concurrency = concurrency;
            this.executor = executor;
            this.threadPrefix = threadPrefix;
            return this;
        }

        /**
         * Sets the heartbeat interval.
         *
         * @param interval the interval, or null for no heartbeats
         * @param threadPrefix the name of the heartbeat thread, followed by a number
         * @return this builder
         */
        public Builder<U> heartbeats(@Nullable Duration interval, String threadPrefix) {
            this.heartbeatInterval = interval;
            this.heartbeatThreadPrefix = threadPrefix;
            return this;
        }

        /**
         * Names the report lane's thread and what it tells, for the slow-report line.
         *
         * @param thread the thread's name
         * @param reportsTo what it tells: {@code observer X}, or {@code the log}
         * @return this builder
         */
        public Builder<U> reports(String thread, String reportsTo) {
            this.reportThread = thread;
            this.reportsTo = reportsTo;
            return this;
        }

        /**
         * Sets where the threads take their work.
         *
         * @param source makes the source from the test that tells it to give up a claim (a pause or a stop)
         * @return this builder
         */
        public Builder<U> source(Function<BooleanSupplier, ClaimSource<U>> source) {
            this.source = source;
            return this;
        }

        /**
         * Sets how a thread runs what it took.
         *
         * @param consumption the handler and settlement of one unit
         * @return this builder
         */
        public Builder<U> consumption(Consumption<U> consumption) {
            this.consumption = consumption;
            return this;
        }

        /**
         * Sets who is told of the leases the consumer's claims take back while it runs.
         *
         * @param leaseExpired told on the claiming thread
         * @return this builder
         */
        public Builder<U> leaseExpired(Consumer<ExpiredLease> leaseExpired) {
            this.leaseExpired = leaseExpired;
            return this;
        }

        /**
         * Sets what runs last when the consumer stops, after its settlements were recorded.
         *
         * @param afterStop the consumer's own clean-up
         * @return this builder
         */
        public Builder<U> afterStop(Runnable afterStop) {
            this.afterStop = afterStop;
            return this;
        }

        /**
         * Builds the consumer, not started.
         *
         * @return the consumer
         */
        public ConsumerRuntime<U> build() {
            return new ConsumerRuntime<>(this);
        }
    }
}
