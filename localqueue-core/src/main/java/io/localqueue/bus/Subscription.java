package io.localqueue.bus;

import io.localqueue.FailureReason;
import io.localqueue.JobNotFoundException;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.FailedRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * One subscription of a bus: a durable queue ({@code __bus__:<bus>:<subscription>}) in the bus's file that receives
 * every event its routes match, consumed by every process that runs a handler for it as one consumer group. Its
 * handlers and settings are this process's; its dead letters are everyone's.
 *
 * @since 0.1.0
 */
public final class Subscription {

    private final EventBus bus;
    private final String name;
    private final SubscriptionConfig config;
    /** Handlers by exact type; read on every delivery without a lock, written only before consuming starts. */
    private final Map<String, EventHandler<Object>> exact = new ConcurrentHashMap<>();
    private volatile @Nullable EventHandler<Object> wildcard;

    Subscription(EventBus bus, String name, int concurrency) {
        this.bus = bus;
        this.name = name;
        this.config = new SubscriptionConfig(name, concurrency);
    }

    /**
     * Returns the subscription's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns this process's settings of the subscription, frozen once it consumes.
     *
     * @return the settings
     */
    public SubscriptionConfig config() {
        return config;
    }

    /**
     * Adds a handler for the events of a class that this subscription's routes already match; routing does not
     * change.
     *
     * @param type the event class, which is registered for reading back
     * @param handler the handler
     * @param <E> the event type
     * @return this subscription
     * @throws IllegalArgumentException when the routes do not match the type, or it has a handler here already
     * @throws IllegalStateException once the subscription consumes
     */
    public <E> Subscription handler(Class<E> type, EventHandler<? super E> handler) {
        bus.addRoutedHandler(this, type, handler);
        return this;
    }

    /**
     * Counts the subscription's deliveries by state, across every process that shares the file; an exact count,
     * which walks the queue's index.
     *
     * @return ready, leased, acknowledged and failed deliveries
     */
    public QueueStats stats() {
        return bus.engineOf(this).stats();
    }

    /**
     * Lists the subscription's dead letters, oldest first, reading each with the bus's event types.
     *
     * @return up to 100 dead letters
     */
    public List<FailedDelivery> listFailed() {
        return listFailed(100, 0);
    }

    /**
     * Lists a page of the subscription's dead letters, oldest first; an envelope that cannot be read gives an
     * {@code inspectionError}, never an exception.
     *
     * @param limit at most this many, 1 to 1000
     * @param offset skipped first, zero or more
     * @return the page
     * @throws IllegalArgumentException when a bound is out of range
     */
    public List<FailedDelivery> listFailed(int limit, int offset) {
        if (limit < 1 || limit > 1_000) {
            throw new IllegalArgumentException("limit must be between 1 and 1000, got " + limit);
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, got " + offset);
        }
        List<FailedDelivery> failed = new ArrayList<>();
        for (FailedRow row : bus.engineOf(this).listFailed(limit, offset)) {
            EventCodec.Decoded decoded = bus.codec().decode(row.payload());
            failed.add(new FailedDelivery(row.id(), name, decoded.event(), decoded.typeName(), decoded.metadata(),
                    row.payload(), row.attempts(), FailureReason.fromStored(row.failureReason()), row.lastError(), row.failureCategory(),
                    Instant.ofEpochMilli(row.createdAt()), Instant.ofEpochMilli(row.updatedAt()), decoded.error()));
        }
        return List.copyOf(failed);
    }

    /**
     * Makes one of this subscription's dead letters ready again with a fresh budget; an event-bus execution that
     * delivered it is no longer complete.
     *
     * @param id the dead letter's id
     * @throws JobNotFoundException when it is not a dead letter of this subscription
     */
    public void retryFailed(long id) {
        bus.engineOf(this).retryFailed(id);
    }

    @Override
    public String toString() {
        return "Subscription[" + bus.name() + ":" + name + "]";
    }

    /** Adds a handler; the bus has validated the routes. */
    synchronized void put(String eventType, EventHandler<Object> handler) {
        if (eventType.equals(BusTopology.WILDCARD)) {
            if (wildcard != null) {
                throw new IllegalArgumentException("subscription '" + name + "' has a wildcard handler already");
            }
            wildcard = handler;
            return;
        }
        if (exact.containsKey(eventType)) {
            throw new IllegalArgumentException("subscription '" + name + "' has a handler for '" + eventType
                    + "' already");
        }
        exact.put(eventType, handler);
    }

    /** Returns the handler of an event type: the exact one, else the wildcard, else null. */
    @Nullable EventHandler<Object> handlerFor(String eventType) {
        EventHandler<Object> handler = exact.get(eventType);
        return handler != null ? handler : wildcard;
    }

    boolean hasExact(String eventType) {
        return exact.containsKey(eventType);
    }

    boolean hasHandlers() {
        return wildcard != null || !exact.isEmpty();
    }
}
