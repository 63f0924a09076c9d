package io.localqueue.bus;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.InvalidArgumentException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.QueueWrites;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Turns events into the deliveries of one transaction: each event encoded once, routed by the topology of the
 * moment, one delivery per subscription (sorted); and the written rows back into receipts.
 */
final class Fanout {

    private final String busName;
    private final EventCodec codec;

    Fanout(String busName, EventCodec codec) {
        this.busName = busName;
        this.codec = codec;
    }

    /** The queue of a subscription of this bus. */
    String queueOf(String subscription) {
        return LocalQueueDatabase.BUS_QUEUE_PREFIX + busName + ":" + subscription;
    }

    /** One event, encoded and routed. */
    record Routed(EventCodec.Encoded encoded, List<String> subscriptions) {
    }

    /** The events of one transaction and their deliveries, in order. */
    record Plan(List<Routed> events, List<Delivery> deliveries, List<String> unrouted) {

        /** The events {@code from} (inclusive) to {@code to} (exclusive), with their deliveries. */
        Plan slice(int from, int to) {
            int first = 0;
            for (int i = 0; i < from; i++) {
                first += events.get(i).subscriptions().size();
            }
            int last = first;
            List<String> unroutedHere = new ArrayList<>();
            for (int i = from; i < to; i++) {
                Routed event = events.get(i);
                last += event.subscriptions().size();
                if (event.subscriptions().isEmpty()) {
                    unroutedHere.add(event.encoded().type().name());
                }
            }
            return new Plan(events.subList(from, to), deliveries.subList(first, last), List.copyOf(unroutedHere));
        }

        /** Each event's type name, in order. */
        List<String> eventTypes() {
            return events.stream().map(event -> event.encoded().type().name()).toList();
        }

        /** The same events with {@code headers} for every delivery, checked already. */
        Plan withHeaders(Map<String, String> headers) {
            if (headers.isEmpty() && deliveries.stream().allMatch(delivery -> delivery.headers().isEmpty())) {
                return this;
            }
            return new Plan(events, deliveries.stream().map(delivery -> delivery.withHeaders(headers)).toList(),
                    unrouted);
        }

        /** How many of the events some subscription routes. */
        long routedEvents() {
            return events.stream().filter(event -> !event.subscriptions().isEmpty()).count();
        }

        /** The queues the plan writes to, for waking their consumers after the commit. */
        Set<String> queues() {
            Set<String> queues = new LinkedHashSet<>();
            for (Delivery delivery : deliveries) {
                queues.add(delivery.queue());
            }
            return queues;
        }
    }

    /**
     * Encodes and routes events; a bare event gets new metadata, a child of {@code parent} when given.
     *
     * @param budget the delivery budget stored on a subscription's new rows
     * @throws IllegalArgumentException when an event cannot be encoded
     * @throws InvalidEventIdentityException when an identity value is invalid
     */
    Plan plan(List<?> events, BusTopology topology, @Nullable EventMetadata parent, ToIntFunction<String> budget,
              java.time.Clock clock) {
        List<Routed> routed = new ArrayList<>(events.size());
        List<Delivery> deliveries = new ArrayList<>(events.size());
        List<String> unrouted = new ArrayList<>();
        for (Object item : events) {
            if (item == null) {
                throw new InvalidArgumentException("event", "event must not be null");
            }
            Object event = item;
            EventMetadata metadata;
            if (item instanceof EventEnvelope<?> envelope) {
                event = envelope.event();
                metadata = envelope.metadata();
            } else {
                metadata = parent == null ? EventMetadata.root(clock) : EventMetadata.childOf(parent, clock);
            }
            EventCodec.Encoded encoded = codec.encode(event, metadata);
            List<String> subscriptions = topology.subscriptionsFor(encoded.type().name());
            if (subscriptions.isEmpty()) {
                unrouted.add(encoded.type().name());
            }
            for (String subscription : subscriptions) {
                deliveries.add(new Delivery(queueOf(subscription), encoded.envelope(),
                        metadata.eventId().toString(), budget.applyAsInt(subscription), encoded.dedupKey(),
                        encoded.fingerprint()));
            }
            routed.add(new Routed(encoded, subscriptions));
        }
        return new Plan(List.copyOf(routed), List.copyOf(deliveries), List.copyOf(unrouted));
    }

    /**
     * Writes a plan's deliveries inside the caller's transaction.
     *
     * @throws DeduplicationConflictException when an identity is stored with another payload, which rolls back the
     *                                        whole transaction
     */
    static Delivered write(QueueWrites writes, Plan plan, long now) {
        return write(writes, plan, now, 0);
    }

    /**
     * Writes a plan's deliveries inside the caller's transaction unless a queue would then hold more than
     * {@code limit} pending rows.
     *
     * @return the rows, or the queue that lacked room with nothing written
     * @throws DeduplicationConflictException when an identity is stored with another payload
     */
    static Delivered write(QueueWrites writes, Plan plan, long now, long limit) {
        if (plan.deliveries().isEmpty()) {
            return Delivered.NOTHING;
        }
        Delivered delivered = writes.bus().deliver(plan.deliveries(), now, limit);
        String conflict = delivered.conflict();
        if (conflict != null) {
            throw new DeduplicationConflictException(conflict);
        }
        return delivered;
    }

    /** Splits the written rows into one receipt per event. */
    static List<DispatchReceipt> receipts(Plan plan, Delivered delivered) {
        List<DispatchReceipt> receipts = new ArrayList<>(plan.events().size());
        int next = 0;
        for (Routed event : plan.events()) {
            int count = event.subscriptions().size();
            receipts.add(new DispatchReceipt(event.encoded().metadata().eventId(), event.encoded().type().name(),
                    event.subscriptions(), delivered.ids().subList(next, next + count),
                    delivered.inserted().subList(next, next + count)));
            next += count;
        }
        return List.copyOf(receipts);
    }
}
