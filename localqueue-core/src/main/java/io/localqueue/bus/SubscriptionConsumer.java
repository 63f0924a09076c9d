package io.localqueue.bus;

import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.internal.consumer.ClaimFeed;
import io.localqueue.internal.consumer.ConsumerRuntime;
import io.localqueue.internal.consumer.FailurePolicy;
import io.localqueue.internal.consumer.HandlerTimeouts;
import io.localqueue.internal.consumer.Heartbeats;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ClaimedRow;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one subscription in this process on the consumers' one runtime ({@link ConsumerRuntime}: threads, batched
 * claims, back-off, pause and stop), adding what only the bus does: it reads each envelope, runs its handler under a
 * timeout when one is set, and hands a returned event to {@link DeliveryOutcomes} to be stored with the
 * acknowledgement. Its engine is its own, closed when it stops: with a retry policy, its claims write the policy's
 * budget onto every delivery they lease.
 */
final class SubscriptionConsumer {

    /** Deliveries' outcomes log here, apart from the bus's own lines (an execution's progress among them). */
    private static final Logger log = LoggerFactory.getLogger("io.localqueue.bus.Subscription");
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final BusRuntime bus;
    private final String subscription;
    private final SubscriptionHandlers handlers;
    private final QueueEngine engine;
    private final FailurePolicy policy;
    private final HandlerTimeouts timeouts;
    private final ConsumerRuntime<ClaimedRow> runtime;
    private final DeliveryOutcomes outcomes;

    SubscriptionConsumer(BusRuntime bus, Dispatcher dispatcher, SubscriptionConfig config,
                         SubscriptionHandlers handlers, QueueEngine engine) {
        this.bus = bus;
        this.subscription = config.subscription();
        this.handlers = handlers;
        this.engine = engine;
        this.policy = new FailurePolicy(config.permanentErrors(), config.retry(), "permanent failure: ",
                FailureReason.HANDLER_TIMEOUT);
        String threads = "localqueue-bus-" + bus.name() + "-" + subscription + "-";
        this.timeouts = new HandlerTimeouts(config.handlerTimeout(), threads + "timeout");
        DeliveryObserver observer = bus.observer();
        this.runtime = ConsumerRuntime.<ClaimedRow>builder(log, "subscription '" + subscription + "' of bus '"
                        + bus.name() + "'", engine)
                .threads(config.concurrency(), null, threads + "handler-")
                .heartbeats(bus.delivery().lease().dividedBy(3), threads + "heartbeat-")
                .reports("localqueue-report-bus-" + bus.name() + "-" + subscription,
                        observer == DeliveryObserver.NONE ? "the log" : "observer " + observer)
                .source(stop -> new ClaimFeed(engine, engine.queueName(), config.concurrency(), POLL_NANOS,
                        bus.delivery().lease(), config.prefetch(), stop))
                .consumption(this::deliver)
                .leaseExpired(lease -> outcomes().leaseExpired(lease))
                .afterStop(this::closed)
                .build();
        this.outcomes = new DeliveryOutcomes(log, dispatcher, bus.observer(), subscription, engine, policy,
                runtime.reports());
    }

    /** Starts the consumer's threads, paused when asked. */
    void start(boolean paused) {
        if (paused) {
            runtime.pause();
        }
        runtime.start();
    }

    /**
     * Stops consumers within one wait, handing back what their handlers did not start (see
     * {@link ConsumerRuntime#stopAll}); after a stop without a wait, interrupted handlers get 5 s to hand back.
     *
     * @return true when every handler finished in time
     */
    static boolean stopAll(Collection<SubscriptionConsumer> consumers, Duration drain) {
        return ConsumerRuntime.stopAll(consumers.stream().map(consumer -> consumer.runtime).toList(), drain,
                Duration.ofSeconds(drain.isZero() ? 5 : 1));
    }

    void pause() {
        runtime.pause();
    }

    void resume() {
        runtime.resume();
    }

    /** Returns how many deliveries its handlers hold right now. */
    int activeDeliveries() {
        return runtime.active();
    }

    /** Tells whether nothing ran for at least {@code nanos}. */
    boolean idleFor(long nanos) {
        return runtime.idleFor(nanos);
    }

    private DeliveryOutcomes outcomes() {
        return outcomes;
    }

    private void closed() {
        timeouts.shutdown();
        engine.close();
    }

    private void deliver(ClaimedRow row) {
        EventCodec.Decoded decoded = bus.codec().decode(row.payload());
        FailureReason unreadable = decoded.failure();
        String type = decoded.typeName();
        if (unreadable != null) {
            outcomes.deadLetter(row, new DeliveryOutcomes.Ran(type, Duration.ZERO, null),
                    Objects.requireNonNullElse(decoded.error(), "unreadable"), unreadable, null);
            return;
        }
        EventHandler<Object> handler = handlers.handlerFor(Objects.requireNonNull(type));
        if (handler == null) {
            outcomes.deadLetter(row, new DeliveryOutcomes.Ran(type, Duration.ZERO, null), "no handler registered "
                    + "for '" + type + "' in '" + subscription + "' in this process", FailureReason.NO_HANDLER,
                    null);
            return;
        }
        DeliveryRun context = new DeliveryRun(Objects.requireNonNull(decoded.metadata()), row.attempts(),
                subscription, type, row.headers());
        runtime.took(1);
        try {
            run(row, handler, Objects.requireNonNull(decoded.event()), context);
        } finally {
            runtime.done(1);
        }
    }

    /** Runs the handler under heartbeats and the timeout, then records what it did. */
    private void run(ClaimedRow row, EventHandler<Object> handler, Object event, DeliveryRun context) {
        AtomicLong leaseUntil = new AtomicLong(row.leaseUntil());
        Heartbeats.Beat beat = runtime.heartbeats().start(() -> leaseUntil.set(engine.extendLease(row.id(),
                row.receipt(), bus.delivery().lease().toMillis())), row.id(), engine.queueName());
        HandlerTimeouts.Timer timer = timeouts.start();
        long start = System.nanoTime();
        Object result = null;
        Throwable error = null;
        boolean timedOut;
        try {
            result = handler.handle(event, context);
        } catch (Throwable thrown) {
            error = thrown;
        } finally {
            timedOut = timer.end();
        }
        boolean leaseLost = beat.stop();
        ClaimedRow held = row.renewedUntil(leaseUntil.get());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        runtime.source().handled(took);
        DeliveryOutcomes.Ran ran = new DeliveryOutcomes.Ran(context.eventType(), took, error);
        if (leaseLost) {
            log.warn("Lease of delivery {} in '{}' was lost while its handler ran; its result is discarded",
                    held.id(), engine.queueName());
            outcomes.observe(ran, JobOutcome.DISCARDED);
        } else if (error != null && runtime.abandoned()) {
            outcomes.release(held, ran);
        } else if (timedOut) {
            outcomes.settle(held, ran, policy.timedOut(Objects.requireNonNull(timeouts.timeout()),
                    held.attempts()));
        } else if (error != null || result == null) {
            outcomes.settle(held, ran, policy.judge(error, held.attempts()));
        } else {
            outcomes.emit(held, ran, context, result);
        }
        if (error instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }
}
