package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.EventBus;
import java.nio.file.Path;

/**
 * What the event-bus scenarios share: their events (the engine scenarios' payload, with and without an identity),
 * a topology that fans an event out to N subscriptions, and the reference library's published figures they are
 * compared with.
 */
final class BusBench {

    /** The report section of event-bus scenarios. */
    static final String GROUP = "bus";

    /** The reference's ingestion of batch 1,000 without identity, fan-out 1 (items/s, 12 CPUs, tmpfs). */
    static final double REFERENCE_INGEST_F1 = 11_418;
    /** The reference's ingestion of batch 1,000 without identity, fan-out 5 (deliveries/s). */
    static final double REFERENCE_INGEST_F5_DELIVERIES = 35_817;
    /** The reference's ingestion of batch 1,000 with identity, fan-out 1 (items/s). */
    static final double REFERENCE_INGEST_IDENTITY_F1 = 6_751;
    /** The reference's repeated dispatch without identity, fan-out 1 (events/s). */
    static final double REFERENCE_DISPATCH_F1 = 5_856;

    private BusBench() {
    }

    /** A bench event without identity: every dispatch is a new event. */
    @BusEvent(name = "bench.message")
    record Message(long seq, long sentNanos, String pad) {
        static Message of(long seq, long sentNanos) {
            BenchMessage message = BenchMessage.of(seq, sentNanos);
            return new Message(message.seq(), message.sentNanos(), message.pad());
        }
    }

    /** A bench event whose sequence number is its durable identity. */
    @BusEvent(name = "bench.keyed", identity = "seq")
    record Keyed(long seq, long sentNanos, String pad) {
        static Keyed of(long seq, long sentNanos) {
            BenchMessage message = BenchMessage.of(seq, sentNanos);
            return new Keyed(message.seq(), message.sentNanos(), message.pad());
        }
    }

    /** A bench event a handler emits for each {@link Message} it handles. */
    @BusEvent(name = "bench.followed")
    record Followed(long seq, long sentNanos) {
    }

    /** The event of a scenario: keyed when it measures identities. */
    static Object event(boolean identity, long seq, long sentNanos) {
        return identity ? Keyed.of(seq, sentNanos) : Message.of(seq, sentNanos);
    }

    /** Routes both bench events to {@code fanout} subscriptions, {@code s1}…, and the followed one to {@code next}. */
    static BusTopology topology(int fanout) {
        BusTopology.Builder routes = BusTopology.builder().route("next", Followed.class);
        for (int i = 1; i <= fanout; i++) {
            routes.route("s" + i, Message.class, Keyed.class);
        }
        return routes.build();
    }

    /** Opens a bench bus on a fresh directory. */
    static EventBus open(Path directory, DurabilityMode mode, int fanout) {
        return EventBus.builder(directory).durability(mode).delivery(RunContext.DELIVERY).topology(topology(fanout))
                .build();
    }
}
