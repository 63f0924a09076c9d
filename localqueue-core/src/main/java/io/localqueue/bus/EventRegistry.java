package io.localqueue.bus;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * The event types one bus can read back, by stored type name; a type name belongs to one class, so a second class
 * declaring a taken name is refused rather than silently reading the first one's events.
 */
final class EventRegistry {

    private final ConcurrentMap<String, EventType> byName = new ConcurrentHashMap<>();

    /**
     * Registers a class and returns its event type.
     *
     * @throws IllegalArgumentException when its declaration is invalid or its name belongs to another class
     */
    EventType register(Class<?> type) {
        EventType declared = EventType.of(type);
        EventType registered = byName.putIfAbsent(declared.name(), declared);
        if (registered != null && registered.javaType() != type) {
            throw new IllegalArgumentException("event type '" + declared.name() + "' of " + type.getName()
                    + " is already the type of " + registered.javaType().getName()
                    + "; give one of them another @BusEvent name");
        }
        return declared;
    }

    /** Returns the event type stored under a name, or null when no class of this bus declares it. */
    @Nullable EventType find(String name) {
        return byName.get(name);
    }
}
