package io.localqueue.bus;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.JobOutcome;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.engine.Settled;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.StoredHeaders;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Stores the deliveries of a bus's events: plans them with the topology of the moment, runs their write inside the
 * dispatch interceptor (which gives them their headers), refuses what nothing routes when the bus requires
 * subscribers, and wakes the consumers of every queue that gained deliveries. Dispatches, ingestion batches and a
 * handler's emitted events all store theirs here.
 */
final class Dispatcher {

    private final BusRuntime runtime;

    Dispatcher(BusRuntime runtime) {
        this.runtime = runtime;
    }

    BusRuntime runtime() {
        return runtime;
    }

    /** Encodes and routes events with the topology of the moment, as children of {@code parent} when given. */
    Fanout.Plan plan(List<?> events, @Nullable EventMetadata parent) {
        return runtime.fanout().plan(events, runtime.topology(), parent, runtime::budgetOf, runtime.clock());
    }

    /**
     * Stores one delivery per routed subscription of every event in one transaction, and returns one receipt per
     * event; nothing is written when an event is unrouted on a bus that requires subscribers.
     */
    List<DispatchReceipt> dispatchAll(List<?> events) {
        runtime.ensureOpen();
        Fanout.Plan planned = plan(events, null);
        if (planned.events().isEmpty()) {
            return List.of();
        }
        return intercepted(planned, Map.of(), null, plan -> {
            requireRouted(plan);
            Delivered delivered = plan.deliveries().isEmpty() ? Delivered.NOTHING
                    : runtime.produce("dispatch", writes -> Fanout.write(writes, plan, runtime.now()));
            signal(plan);
            return Fanout.receipts(plan, delivered);
        });
    }

    /**
     * Hands over the acknowledgement of a delivery with the deliveries of its handler's events and the edges from it to
     * them, to commit together with other settlements, the write running inside the dispatch interceptor (which
     * returns before the commit) and the children inheriting the delivery's headers unless the interceptor passes
     * others; {@code done} hears the outcome after the commit: nothing is stored when the lease is gone, and a
     * {@link DeduplicationConflictException} rolls the acknowledgement back too.
     *
     * @param engine the engine of the delivery's queue
     * @param delivery the delivery whose handler returned the events
     * @param planned the events' deliveries
     * @param parent the delivery's context
     * @param done told the outcome once committed, on the committing thread; must be quick
     * @throws IllegalArgumentException when the interceptor's headers cannot be stored as given; nothing is handed over
     */
    void emitLater(QueueEngine engine, ClaimedRow delivery, Fanout.Plan planned, EventContext parent, Settled done) {
        runtime.ensureTables();
        runtime.ensureOpen();
        intercepted(planned, parent.headers(), parent, plan -> {
            engine.acknowledgeLater(delivery.id(), delivery.receipt(), delivery.leaseUntil(), writes -> {
                Delivered children = Fanout.write(writes, plan, runtime.now());
                writes.bus().linkDeliveries(delivery.id(), children.ids());
                return null;
            }, (outcome, failure) -> {
                if (outcome == JobOutcome.ACKED) {
                    signal(plan);
                }
                done.settled(outcome, failure);
            });
            return null;
        });
    }

    /**
     * Runs the write of a plan inside the dispatch interceptor, with the headers it passes on (checked) on every
     * delivery of the plan.
     *
     * @param inherited the headers the deliveries get unless the interceptor passes others
     * @param emittedBy the delivery whose handler returned the plan's events, or null
     * @throws IllegalArgumentException when the headers cannot be stored as given; nothing is written
     */
    <R> R intercepted(Fanout.Plan plan, Map<String, String> inherited, @Nullable EventContext emittedBy,
                      Function<Fanout.Plan, R> write) {
        Dispatch dispatch = new Dispatch(runtime.name(), plan.eventTypes(), inherited, emittedBy);
        return runtime.settings().interceptor().intercept(dispatch, headers -> write.apply(plan.withHeaders(
                StoredHeaders.require(Dispatch.copyOf(headers), "headers"))));
    }

    /** Tells whether an event nothing routes is refused. */
    boolean requiresSubscribers() {
        return runtime.settings().requireSubscribers();
    }

    /** Refuses a plan with an event nothing routes, on a bus that requires subscribers. */
    void requireRouted(Fanout.Plan plan) {
        if (requiresSubscribers() && !plan.unrouted().isEmpty()) {
            throw new NoSubscribersException(plan.unrouted().get(0));
        }
    }

    /** Wakes this process's consumers of every queue the plan wrote to. */
    void signal(Fanout.Plan plan) {
        for (String queue : plan.queues()) {
            runtime.signal(queue);
        }
    }
}
