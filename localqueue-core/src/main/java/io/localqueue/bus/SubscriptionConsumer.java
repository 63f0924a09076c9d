package io.localqueue.bus;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.RetryPolicy;
import io.localqueue.internal.engine.ClaimFeed;
import io.localqueue.internal.engine.ClaimTrouble;
import io.localqueue.internal.engine.Errors;
import io.localqueue.internal.engine.Heartbeats;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.engine.ReportLane;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.Settlement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one subscription in this process: {@code concurrency} threads take deliveries from one batched claim
 * feed, read each envelope, run its handler under lease heartbeats (and a timeout, when set) and settle the outcome
 * through the database's grouped commit without waiting, except a handler's emitted events, which commit with their
 * parent's acknowledgement in one transaction of their own. Its engine is its own, closed when it stops: with a
 * retry policy, its claims write the policy's budget onto every delivery they lease.
 */
final class SubscriptionConsumer {

    /** Deliveries' outcomes log here, apart from the bus's own lines (an execution's progress among them). */
    private static final Logger log = LoggerFactory.getLogger(Subscription.class);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The longest a stop waits, for all its subscriptions, for the observers to be told of the outcomes it recorded. */
    private static final Duration REPORTS_WAIT = Duration.ofSeconds(2);

    private final EventBus bus;
    private final Subscription subscription;
    private final String queue;
    private final QueueEngine engine;
    private final int concurrency;
    private final @Nullable RetryPolicy retry;
    private final @Nullable Duration timeout;
    private final List<Class<? extends Throwable>> permanentErrors;
    private final ClaimFeed feed;
    private final ClaimTrouble trouble;
    private final Heartbeats heartbeats;
    private final ScheduledExecutorService timeouts;
    private final ExecutorService threads;
    private final DeliveryObserver observer;
    private final ReportLane lane;
    private final Runnable stopObservingExpiries;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicLong lastBusy = new AtomicLong(System.nanoTime());
    private volatile boolean running = true;
    /** Set once the stop gave up waiting and interrupts the handlers still running. */
    private volatile boolean abandoned;

    SubscriptionConsumer(EventBus bus, Subscription subscription, QueueEngine engine) {
        this.bus = bus;
        this.subscription = subscription;
        this.queue = bus.fanout().queueOf(subscription.name());
        this.engine = engine;
        SubscriptionConfig config = subscription.config();
        this.concurrency = config.concurrency();
        this.retry = config.retry();
        this.timeout = config.handlerTimeout();
        this.permanentErrors = config.permanentErrors();
        this.feed = new ClaimFeed(engine, queue, concurrency, POLL_NANOS, bus.delivery().lease(),
                config.prefetch(), () -> !running);
        String prefix = "localqueue-bus-" + bus.name() + "-" + subscription.name() + "-";
        this.trouble = new ClaimTrouble(log, prefix.substring(0, prefix.length() - 1), queue);
        this.heartbeats = new Heartbeats(bus.delivery().lease().dividedBy(3), daemon(prefix + "heartbeat"), log);
        this.timeouts = Executors.newSingleThreadScheduledExecutor(daemon(prefix + "timeout"));
        this.threads = Executors.newFixedThreadPool(concurrency, daemon(prefix + "handler"));
        this.observer = bus.observer();
        this.lane = new ReportLane(log, "subscription '" + subscription.name() + "' of bus '" + bus.name() + "'",
                "localqueue-report-bus-" + bus.name() + "-" + subscription.name(),
                observer == DeliveryObserver.NONE ? "the log" : "observer " + observer);
        this.stopObservingExpiries = engine.leaseExpiries().listen(lease -> lane.report(
                () -> "the expired lease of delivery " + lease.id(), () -> {
                    observer.leaseExpired(subscription.name(), lease.id(), lease.attempts(), lease.deadLettered());
                    if (lease.deadLettered()) {
                        observer.deliveryDeadLettered(subscription.name(), lease.id(),
                                FailureReason.RETRIES_EXHAUSTED, lease.lastError(), lease.attempts());
                    }
                }));
    }

    void start() {
        for (int i = 0; i < concurrency; i++) {
            threads.execute(this::poll);
        }
    }

    /**
     * Stops consumers within one wait, handing back what their handlers did not start: all stop claiming at once,
     * then all get until {@code drain} is over for their running handlers, then those still running are interrupted
     * together, so that the stop of many consumers takes no longer than the stop of one.
     *
     * @return true when every handler finished in time
     */
    static boolean stopAll(Collection<SubscriptionConsumer> consumers, Duration drain) {
        long deadline = System.nanoTime() + drain.toNanos();
        consumers.forEach(SubscriptionConsumer::stopClaiming);
        boolean drained = true;
        for (SubscriptionConsumer consumer : consumers) {
            drained &= consumer.awaitHandlers(deadline);
        }
        long grace = System.nanoTime() + TimeUnit.SECONDS.toNanos(drain.isZero() ? 5 : 1);
        long reported = grace + REPORTS_WAIT.toNanos();
        for (SubscriptionConsumer consumer : consumers) {
            consumer.finish(grace, reported);
        }
        return drained;
    }

    private void stopClaiming() {
        running = false;
        feed.wake();
        engine.wakeWaiters();
        threads.shutdown();
    }

    /** Waits for the running handlers until the deadline, then interrupts those still running. */
    private boolean awaitHandlers(long deadlineNanos) {
        if (awaitTermination(deadlineNanos)) {
            return true;
        }
        abandoned = true;
        threads.shutdownNow();
        return false;
    }

    /**
     * Gives interrupted handlers until {@code graceNanos} to hand their deliveries back, its observers until
     * {@code reportedNanos} to be told of what was settled, then closes.
     */
    private void finish(long graceNanos, long reportedNanos) {
        awaitTermination(graceNanos);
        feed.releaseAll();
        engine.flushSettlements();
        if (!lane.awaitReported(Duration.ofNanos(Math.max(0, reportedNanos - System.nanoTime())))) {
            log.warn("Subscription '{}' did not wait longer than {} ms for its observers; they are still being told",
                    subscription.name(), REPORTS_WAIT.toMillis());
        }
        heartbeats.shutdown();
        timeouts.shutdownNow();
        stopObservingExpiries.run();
        engine.close();
    }

    private boolean awaitTermination(long deadlineNanos) {
        try {
            return threads.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return threads.isTerminated();
        }
    }

    /** Returns how many deliveries its handlers hold right now. */
    int activeDeliveries() {
        return active.get();
    }

    /** Tells whether nothing ran and nothing was due for at least {@code nanos}. */
    boolean idleFor(long nanos) {
        return active.get() == 0 && System.nanoTime() - lastBusy.get() >= nanos;
    }

    private void poll() {
        while (running) {
            ClaimedRow row;
            try {
                row = feed.next();
            } catch (QueueClosedException closed) {
                return;
            } catch (LocalQueueException | IllegalStateException failure) {
                pause(trouble.failed(failure));
                continue;
            }
            trouble.succeeded();
            if (row != null) {
                active.incrementAndGet();
                try {
                    deliver(row);
                } finally {
                    lastBusy.set(System.nanoTime());
                    active.decrementAndGet();
                }
            }
        }
    }

    private void deliver(ClaimedRow row) {
        EventCodec.Decoded decoded = bus.codec().decode(row.payload());
        FailureReason unreadable = decoded.failure();
        if (unreadable != null) {
            settle(row, new Ran(decoded.typeName(), Duration.ZERO, null), Settlement.Kind.DEAD_LETTER,
                    decoded.error(), unreadable, null, 0);
            return;
        }
        String type = java.util.Objects.requireNonNull(decoded.typeName());
        EventHandler<Object> handler = subscription.handlerFor(type);
        if (handler == null) {
            settle(row, new Ran(type, Duration.ZERO, null), Settlement.Kind.DEAD_LETTER, "no handler registered for '"
                    + type + "' in '" + subscription.name() + "' in this process", FailureReason.NO_HANDLER, null, 0);
            return;
        }
        EventMetadata metadata = java.util.Objects.requireNonNull(decoded.metadata());
        DeliveryRun context = new DeliveryRun(metadata, row.attempts(), subscription.name(), type, row.headers());
        AtomicLong leaseUntil = new AtomicLong(row.leaseUntil());
        long id = row.id();
        String receipt = row.receipt();
        Heartbeats.Beat beat = heartbeats.start(() -> leaseUntil.set(engine.extendLease(id, receipt,
                bus.delivery().lease().toMillis())), id, queue);
        Thread handlerThread = Thread.currentThread();
        TimedOut timedOut = new TimedOut();
        ScheduledFuture<?> timer = timeout == null ? null : timeouts.schedule(() -> timedOut.interrupt(handlerThread),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        long start = System.nanoTime();
        Object result = null;
        Throwable error = null;
        try {
            result = handler.handle(java.util.Objects.requireNonNull(decoded.event()), context);
        } catch (Throwable thrown) {
            error = thrown;
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            timedOut.done();
            Thread.interrupted();
        }
        boolean leaseLost = beat.stop();
        row = row.renewedUntil(leaseUntil.get());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        feed.handled(took);
        Ran ran = new Ran(type, took, error);
        if (leaseLost) {
            log.warn("Lease of delivery {} in '{}' was lost while its handler ran; its result is discarded",
                    row.id(), queue);
            observe(ran, JobOutcome.DISCARDED);
        } else if (error != null && abandoned) {
            release(row, ran);
        } else if (timedOut.fired()) {
            settle(row, ran, Settlement.Kind.RETRY, "handler timeout after " + seconds(timeout) + " seconds",
                    retry == null ? FailureReason.HANDLER_TIMEOUT : FailureReason.RETRIES_EXHAUSTED, null,
                    policyDelay(row));
        } else if (error != null) {
            failed(row, ran, error);
        } else if (result == null) {
            settle(row, ran, Settlement.Kind.ACK, null, null, null, 0);
        } else {
            emit(row, ran, context, result);
        }
        if (error instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }

    /** Hands back, without counting the delivery, a delivery whose handler the stop interrupted. */
    private void release(ClaimedRow row, Ran ran) {
        try {
            if (engine.release(row.id(), row.receipt())) {
                observe(ran, JobOutcome.RELEASED);
                log.warn("Delivery {} in '{}' was interrupted by the bus stopping; it is ready again and the "
                        + "interrupted delivery is not counted", row.id(), queue);
            }
        } catch (RuntimeException failure) {
            log.warn("Delivery {} in '{}' was interrupted by the bus stopping and could not be handed back; it "
                    + "will be delivered again after its lease", row.id(), queue, failure);
        }
    }

    private void failed(ClaimedRow row, Ran ran, Throwable error) {
        if (error instanceof RejectException rejected) {
            settle(row, ran, Settlement.Kind.DEAD_LETTER, rejected.getMessage(), FailureReason.REJECTED,
                    rejected.category(), 0);
        } else if (error instanceof RetryException retryLater) {
            Duration after = retryLater.after();
            settle(row, ran, Settlement.Kind.RETRY, retryLater.getMessage(), FailureReason.RETRIES_EXHAUSTED, null,
                    after == null ? policyDelay(row) : after.toMillis());
        } else if (isPermanent(error)) {
            settle(row, ran, Settlement.Kind.DEAD_LETTER, "permanent failure: " + Errors.describe(error),
                    FailureReason.PERMANENT_HANDLER_ERROR, null, 0);
        } else {
            settle(row, ran, Settlement.Kind.RETRY, Errors.describe(error), FailureReason.RETRIES_EXHAUSTED, null,
                    policyDelay(row));
        }
    }

    /**
     * Acknowledges the delivery and stores its handler's events in one transaction, fenced by its receipt; they
     * inherit the delivery's headers unless the bus's dispatch interceptor passes others.
     */
    private void emit(ClaimedRow row, Ran ran, DeliveryRun parent, Object result) {
        List<?> events = result instanceof Collection<?> many ? new ArrayList<>(many) : List.of(result);
        Fanout.Plan plan;
        try {
            plan = bus.plan(events, parent.metadata());
        } catch (InvalidEventIdentityException invalid) {
            settle(row, ran, Settlement.Kind.DEAD_LETTER, Errors.describe(invalid),
                    FailureReason.PERMANENT_HANDLER_ERROR, "invalid_event_identity", 0);
            return;
        } catch (IllegalArgumentException unsupported) {
            settle(row, ran, Settlement.Kind.DEAD_LETTER, "handler returned an unsupported result: "
                    + unsupported.getMessage(), FailureReason.PERMANENT_HANDLER_ERROR, null, 0);
            return;
        }
        if (!plan.unrouted().isEmpty() && bus.requiresSubscribers()) {
            settle(row, ran, Settlement.Kind.DEAD_LETTER, "no subscription for '" + plan.unrouted().get(0)
                    + "' emitted by the handler", FailureReason.PERMANENT_HANDLER_ERROR, "no_subscribers", 0);
            return;
        }
        if (plan.deliveries().isEmpty()) {
            settle(row, ran, Settlement.Kind.ACK, null, null, null, 0);
            return;
        }
        try {
            boolean acked = bus.emit(queue, row.id(), row.receipt(), plan, parent);
            if (!acked) {
                log.warn("Lease of delivery {} in '{}' expired before its handler's events were stored; nothing "
                        + "was emitted and it will be delivered again", row.id(), queue);
            }
            observe(ran, acked ? JobOutcome.ACKED : JobOutcome.DISCARDED);
        } catch (DeduplicationConflictException conflict) {
            settle(row, ran, Settlement.Kind.DEAD_LETTER, Errors.describe(conflict),
                    FailureReason.PERMANENT_HANDLER_ERROR, "deduplication_conflict", 0);
        } catch (QueueClosedException closed) {
            throw closed;
        } catch (RuntimeException failure) {
            settle(row, ran, Settlement.Kind.RETRY, "emitting the handler's events failed: " + Errors.describe(failure),
                    FailureReason.RETRIES_EXHAUSTED, null, policyDelay(row));
        }
    }

    private void settle(ClaimedRow row, Ran ran, Settlement.Kind kind, @Nullable String lastError,
                        @Nullable FailureReason reason, @Nullable String category, long delayMillis) {
        try {
            engine.settleLater(kind, row.id(), row.receipt(), lastError, reason, category, delayMillis,
                    row.leaseUntil(), (outcome, failure) -> {
                        report(row, outcome, failure, lastError, reason, category, delayMillis);
                        lane.report(() -> "the outcome of delivery " + row.id(),
                                () -> settled(row, ran, outcome, lastError, reason));
                    });
        } catch (QueueClosedException closed) {
            log.warn("Delivery {} in '{}' could not be settled because the bus closed; it will be delivered again",
                    row.id(), queue);
        }
    }

    /** Tells the observer of a settled delivery's outcome and of a dead letter; on the report lane. */
    private void settled(ClaimedRow row, Ran ran, @Nullable JobOutcome outcome, @Nullable String lastError,
                         @Nullable FailureReason reason) {
        if (outcome != null) {
            tell(ran, outcome);
        }
        if (outcome == JobOutcome.DEAD_LETTERED) {
            observer.deliveryDeadLettered(subscription.name(), row.id(),
                    reason == null ? FailureReason.RETRIES_EXHAUSTED : reason, lastError, row.attempts());
        }
    }

    private void report(ClaimedRow row, @Nullable JobOutcome outcome, @Nullable RuntimeException failure,
                        @Nullable String lastError, @Nullable FailureReason reason, @Nullable String category,
                        long delayMillis) {
        if (failure != null) {
            // the database's settlements logged the failure, with this delivery among others
            log.debug("The result of delivery {} in '{}' was not recorded; it will be delivered again after its "
                    + "lease", row.id(), queue, failure);
        } else if (outcome == JobOutcome.RETRIED) {
            log.warn("Delivery {} in '{}' failed on attempt {}; it will be retried in {} ms: {}", row.id(), queue,
                    row.attempts(), delayMillis, lastError);
        } else if (outcome == JobOutcome.DEAD_LETTERED && reason == FailureReason.REJECTED) {
            log.warn("Delivery {} in '{}' was rejected by its handler and is now a dead letter{}: {}", row.id(), queue,
                    category == null ? "" : " (" + category + ")", lastError);
        } else if (outcome == JobOutcome.DEAD_LETTERED) {
            log.error("Delivery {} in '{}' is now a dead letter ({}): {}", row.id(), queue,
                    reason == null ? "failed" : reason.value(), lastError);
        } else if (outcome == JobOutcome.DISCARDED) {
            log.warn("Lease of delivery {} in '{}' expired before its result was recorded; it will be delivered "
                    + "again", row.id(), queue);
        }
    }

    /** Tells the observer of an outcome on the report lane. */
    private void observe(Ran ran, JobOutcome outcome) {
        lane.report(() -> "an outcome", () -> tell(ran, outcome));
    }

    private void tell(Ran ran, JobOutcome outcome) {
        observer.deliveryFinished(subscription.name(), ran.eventType(), outcome, ran.handlerTime(), ran.error());
    }

    private long policyDelay(ClaimedRow row) {
        return retry == null ? 0 : retry.delayAfter(Math.max(1, row.attempts())).toMillis();
    }

    private boolean isPermanent(Throwable error) {
        for (Class<? extends Throwable> type : permanentErrors) {
            if (type.isInstance(error)) {
                return true;
            }
        }
        return false;
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static String seconds(@Nullable Duration duration) {
        return duration == null ? "0" : String.valueOf(duration.toMillis() / 1000.0);
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** What ran for one delivery, for the observer. */
    private record Ran(@Nullable String eventType, Duration handlerTime, @Nullable Throwable error) {
    }

    /** Whether the timeout interrupted the handler, made safe against a timer firing after the handler returned. */
    private static final class TimedOut {
        private boolean finished;
        private boolean fired;

        synchronized void interrupt(Thread handler) {
            if (!finished) {
                fired = true;
                handler.interrupt();
            }
        }

        synchronized void done() {
            finished = true;
        }

        synchronized boolean fired() {
            return fired;
        }
    }
}
