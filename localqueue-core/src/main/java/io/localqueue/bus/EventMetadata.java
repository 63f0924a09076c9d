package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What the bus stores beside an event's payload: its id, the id of the first event of its chain (its correlation),
 * the id of the event whose handler emitted it (its causation, null for a root event) and when it was made, to the
 * microsecond as the envelope keeps it. An event redispatched with the same metadata is stored once per
 * subscription.
 *
 * @param eventId the event's id
 * @param correlationId the chain's id; a root event's is its own id
 * @param causationId the emitting event's id, or null for a root event
 * @param createdAt when the event was made
 * @since 0.1.0
 */
public record EventMetadata(UUID eventId, UUID correlationId, @Nullable UUID causationId, Instant createdAt) {

    /**
     * Checks the values and truncates the time to microseconds, the envelope's precision.
     *
     * @throws IllegalArgumentException naming the parameter that is null
     */
    public EventMetadata {
        if (eventId == null) {
            throw new InvalidArgumentException("eventId", "eventId must not be null");
        }
        if (correlationId == null) {
            throw new InvalidArgumentException("correlationId", "correlationId must not be null");
        }
        if (createdAt == null) {
            throw new InvalidArgumentException("createdAt", "createdAt must not be null");
        }
        createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Returns the metadata of a new root event, made now: a new time-ordered id (a version-7 UUID) that is also its
     * correlation.
     *
     * @return new metadata
     */
    public static EventMetadata root() {
        return root(Clock.systemUTC());
    }

    /**
     * Returns the metadata of a new root event made at the clock's time.
     *
     * @param clock the time source
     * @return new metadata
     */
    public static EventMetadata root(Clock clock) {
        Instant now = clock.instant();
        UUID id = EventIds.next(now.toEpochMilli());
        return new EventMetadata(id, id, null, now);
    }

    /**
     * Returns the metadata of a new event emitted while handling {@code parent}: it keeps the parent's correlation
     * and names the parent as its cause.
     *
     * @param parent the event being handled
     * @param clock the time source
     * @return new metadata
     */
    public static EventMetadata childOf(EventMetadata parent, Clock clock) {
        Instant now = clock.instant();
        return new EventMetadata(EventIds.next(now.toEpochMilli()), parent.correlationId(), parent.eventId(), now);
    }
}
