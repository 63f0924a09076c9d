package io.localqueue.bus;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The handlers of one subscription in this process, by exact event type plus at most one wildcard; read on every
 * delivery without a lock, and an exact handler wins over the wildcard.
 */
final class SubscriptionHandlers {

    private final String subscription;
    private final Map<String, EventHandler<Object>> exact = new ConcurrentHashMap<>();
    private volatile @Nullable EventHandler<Object> wildcard;

    SubscriptionHandlers(String subscription) {
        this.subscription = subscription;
    }

    /**
     * Adds a handler for a type name, or the wildcard for {@code "*"}.
     *
     * @throws IllegalArgumentException when the subscription has a handler for it already
     */
    synchronized void put(String eventType, EventHandler<?> handler) {
        if (eventType.equals(BusTopology.WILDCARD)) {
            if (wildcard != null) {
                throw new IllegalArgumentException("subscription '" + subscription
                        + "' has a wildcard handler already");
            }
            wildcard = cast(handler);
            return;
        }
        if (exact.containsKey(eventType)) {
            throw new IllegalArgumentException("subscription '" + subscription + "' has a handler for '" + eventType
                    + "' already");
        }
        exact.put(eventType, cast(handler));
    }

    /** Returns the handler of a type name, else the wildcard, else null. */
    @Nullable EventHandler<Object> handlerFor(String eventType) {
        EventHandler<Object> handler = exact.get(eventType);
        return handler != null ? handler : wildcard;
    }

    boolean hasExact(String eventType) {
        return exact.containsKey(eventType);
    }

    boolean any() {
        return wildcard != null || !exact.isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static EventHandler<Object> cast(EventHandler<?> handler) {
        return (EventHandler<Object>) handler;
    }
}
