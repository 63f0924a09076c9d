package io.localqueue.bus;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.QueueClosedException;
import io.localqueue.internal.consumer.FailurePolicy;
import io.localqueue.internal.consumer.ReportLane;
import io.localqueue.internal.engine.Errors;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Records what one subscription's handlers did and reports it: a verdict of the consumers' {@link FailurePolicy} is
 * handed to the grouped commit without waiting, and so are a handler's returned events with its acknowledgement (one
 * unit: neither commits without the other); once recorded the outcome is logged at once and told to the bus's observer on the
 * subscription's {@link ReportLane}, never on the thread that commits.
 */
final class DeliveryOutcomes {

    private final Logger log;
    private final Dispatcher dispatcher;
    private final String subscription;
    private final String queue;
    private final QueueEngine engine;
    private final FailurePolicy policy;
    private final DeliveryObserver observer;
    private final ReportLane lane;

    DeliveryOutcomes(Logger log, Dispatcher dispatcher, DeliveryObserver observer, String subscription,
                     QueueEngine engine, FailurePolicy policy, ReportLane lane) {
        this.log = log;
        this.dispatcher = dispatcher;
        this.subscription = subscription;
        this.queue = engine.queueName();
        this.engine = engine;
        this.policy = policy;
        this.observer = observer;
        this.lane = lane;
    }

    /** What ran for one delivery, for the observer. */
    record Ran(@Nullable String eventType, Duration handlerTime, @Nullable Throwable error) {
    }

    /** Records a verdict on a delivery without waiting for the commit. */
    void settle(ClaimedRow row, Ran ran, FailurePolicy.Verdict verdict) {
        try {
            engine.settleLater(verdict.kind(), row.id(), row.receipt(), verdict.lastError(), verdict.reason(),
                    verdict.category(), verdict.delayMillis(), row.leaseUntil(), (outcome, failure) -> {
                        logOutcome(row, verdict, outcome, failure);
                        lane.report(() -> "the outcome of delivery " + row.id(), () -> settled(row, ran, verdict,
                                outcome));
                    });
        } catch (QueueClosedException closed) {
            log.warn("Delivery {} in '{}' could not be settled because the bus closed; it will be delivered again",
                    row.id(), queue);
        }
    }

    /** Dead-letters a delivery at once, as {@link FailureReason#PERMANENT_HANDLER_ERROR} unless said otherwise. */
    void deadLetter(ClaimedRow row, Ran ran, String lastError, FailureReason reason, @Nullable String category) {
        settle(row, ran, FailurePolicy.Verdict.deadLetter(lastError, reason, category));
    }

    /**
     * Hands over the delivery's acknowledgement with its handler's events, to commit in one transaction fenced by its
     * receipt without waiting; they inherit the delivery's headers unless the bus's dispatch interceptor passes
     * others.
     */
    void emit(ClaimedRow row, Ran ran, EventContext parent, Object result) {
        List<?> events = result instanceof Collection<?> many ? new ArrayList<>(many) : List.of(result);
        Fanout.Plan plan;
        try {
            plan = dispatcher.plan(events, parent.metadata());
        } catch (InvalidEventIdentityException invalid) {
            deadLetter(row, ran, Errors.describe(invalid), FailureReason.PERMANENT_HANDLER_ERROR,
                    "invalid_event_identity");
            return;
        } catch (IllegalArgumentException unsupported) {
            deadLetter(row, ran, "handler returned an unsupported result: " + unsupported.getMessage(),
                    FailureReason.PERMANENT_HANDLER_ERROR, null);
            return;
        }
        if (!plan.unrouted().isEmpty() && dispatcher.requiresSubscribers()) {
            deadLetter(row, ran, "no subscription for '" + plan.unrouted().get(0) + "' emitted by the handler",
                    FailureReason.PERMANENT_HANDLER_ERROR, "no_subscribers");
            return;
        }
        if (plan.deliveries().isEmpty()) {
            settle(row, ran, FailurePolicy.Verdict.ACK);
            return;
        }
        try {
            dispatcher.emitLater(engine, row, plan, parent, (outcome, failure) -> emitted(row, ran, outcome, failure));
        } catch (QueueClosedException closed) {
            throw closed;
        } catch (RuntimeException failure) {
            emitFailed(row, ran, failure);
        }
    }

    /** Tells what an emission handed over did, once its transaction ended; on the committing thread. */
    private void emitted(ClaimedRow row, Ran ran, @Nullable JobOutcome outcome, @Nullable RuntimeException failure) {
        if (failure != null) {
            emitFailed(row, ran, failure);
            return;
        }
        if (outcome != JobOutcome.ACKED) {
            log.warn("Lease of delivery {} in '{}' expired before its handler's events were stored; nothing was "
                    + "emitted and it will be delivered again", row.id(), queue);
        }
        observe(ran, outcome == JobOutcome.ACKED ? JobOutcome.ACKED : JobOutcome.DISCARDED);
    }

    /**
     * Settles a delivery whose handler's events were not stored, nor its acknowledgement: a deduplication conflict is
     * a dead letter, any other failure a retry.
     */
    private void emitFailed(ClaimedRow row, Ran ran, RuntimeException failure) {
        if (failure instanceof DeduplicationConflictException conflict) {
            deadLetter(row, ran, Errors.describe(conflict), FailureReason.PERMANENT_HANDLER_ERROR,
                    "deduplication_conflict");
        } else {
            settle(row, ran, policy.retry("emitting the handler's events failed: " + Errors.describe(failure),
                    row.attempts()));
        }
    }

    /** Hands back, without counting the delivery, a delivery whose handler the stop interrupted. */
    void release(ClaimedRow row, Ran ran) {
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

    /** Tells the observer of an outcome that needed no settlement, on the report lane. */
    void observe(Ran ran, JobOutcome outcome) {
        lane.report(() -> "an outcome", () -> tell(ran, outcome));
    }

    /** Tells the observer of a lease the subscription's claims took back, on the report lane. */
    void leaseExpired(ExpiredLease lease) {
        lane.report(() -> "the expired lease of delivery " + lease.id(), () -> {
            observer.leaseExpired(subscription, lease.id(), lease.attempts(), lease.deadLettered());
            if (lease.deadLettered()) {
                observer.deliveryDeadLettered(subscription, lease.id(), FailureReason.RETRIES_EXHAUSTED,
                        lease.lastError(), lease.attempts());
            }
        });
    }

    /** Tells the observer of a settled delivery's outcome and of a dead letter; on the report lane. */
    private void settled(ClaimedRow row, Ran ran, FailurePolicy.Verdict verdict, @Nullable JobOutcome outcome) {
        if (outcome != null) {
            tell(ran, outcome);
        }
        if (outcome == JobOutcome.DEAD_LETTERED) {
            FailureReason reason = verdict.reason();
            observer.deliveryDeadLettered(subscription, row.id(),
                    reason == null ? FailureReason.RETRIES_EXHAUSTED : reason, verdict.lastError(), row.attempts());
        }
    }

    private void logOutcome(ClaimedRow row, FailurePolicy.Verdict verdict, @Nullable JobOutcome outcome,
                            @Nullable RuntimeException failure) {
        FailureReason reason = verdict.reason();
        if (failure != null) {
            // the database's settlements logged the failure, with this delivery among others
            log.debug("The result of delivery {} in '{}' was not recorded; it will be delivered again after its "
                    + "lease", row.id(), queue, failure);
        } else if (outcome == JobOutcome.RETRIED) {
            log.warn("Delivery {} in '{}' failed on attempt {}; it will be retried in {} ms: {}", row.id(), queue,
                    row.attempts(), verdict.delayMillis(), verdict.lastError());
        } else if (outcome == JobOutcome.DEAD_LETTERED && reason == FailureReason.REJECTED) {
            log.warn("Delivery {} in '{}' was rejected by its handler and is now a dead letter{}: {}", row.id(), queue,
                    verdict.category() == null ? "" : " (" + verdict.category() + ")", verdict.lastError());
        } else if (outcome == JobOutcome.DEAD_LETTERED) {
            log.error("Delivery {} in '{}' is now a dead letter ({}): {}", row.id(), queue,
                    reason == null ? "failed" : reason.value(), verdict.lastError());
        } else if (outcome == JobOutcome.DISCARDED) {
            log.warn("Lease of delivery {} in '{}' expired before its result was recorded; it will be delivered "
                    + "again", row.id(), queue);
        }
    }

    private void tell(Ran ran, JobOutcome outcome) {
        observer.deliveryFinished(subscription, ran.eventType(), outcome, ran.handlerTime(), ran.error());
    }
}
