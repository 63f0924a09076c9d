package io.localqueue.bus;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a handler knows of the delivery it handles, besides the event: the event's metadata, which delivery this is
 * (from 1, counting deliveries whose lease ran out), the subscription it came through and the headers stored with it.
 *
 * @since 0.1.0
 */
public interface EventContext {

    /**
     * Returns the event's id, the same on every delivery and in every subscription.
     *
     * @return the id
     */
    UUID eventId();

    /**
     * Returns the id of the first event of this event's chain; a root event's own id.
     *
     * @return the correlation id
     */
    UUID correlationId();

    /**
     * Returns the id of the event whose handler emitted this one, or null for a root event.
     *
     * @return the causation id, or null
     */
    @Nullable UUID causationId();

    /**
     * Returns when the event was made, to the microsecond.
     *
     * @return the creation time
     */
    Instant createdAt();

    /**
     * Returns which delivery of the event to this subscription this is, from 1.
     *
     * @return the attempt, at least 1
     */
    int attempt();

    /**
     * Returns the subscription the event was delivered through.
     *
     * @return the subscription's name
     */
    String subscription();

    /**
     * Returns the stored event type name.
     *
     * @return the event type
     */
    String eventType();

    /**
     * Returns the event's metadata as one value, for emitting a child with {@link EventMetadata#childOf}.
     *
     * @return the metadata
     */
    EventMetadata metadata();

    /**
     * Returns the headers stored with this delivery when it was dispatched (given by a {@link DispatchInterceptor}, or
     * inherited from the delivery whose handler emitted the event), the same on every delivery; empty for none, as
     * for an event dispatched without headers or by the Python library.
     *
     * @return the headers, unmodifiable, in the order they were given
     * @since 0.1.0
     */
    Map<String, String> headers();
}
