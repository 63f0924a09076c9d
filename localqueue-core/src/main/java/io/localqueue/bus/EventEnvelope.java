package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
/**
 * An event with metadata of the caller's choosing, for dispatching or emitting it under a known id (so that a
 * retried dispatch is stored once) or in a chain of the caller's; a bare event gets new metadata instead.
 *
 * @param event the event, an instance of a concrete event class
 * @param metadata its metadata
 * @param <E> the event type
 * @since 0.1.0
 */
public record EventEnvelope<E>(E event, EventMetadata metadata) {

    /**
     * Checks that both are given.
     *
     * @throws IllegalArgumentException naming the parameter that is null
     */
    public EventEnvelope {
        if (event == null) {
            throw new InvalidArgumentException("event", "event must not be null");
        }
        if (metadata == null) {
            throw new InvalidArgumentException("metadata", "metadata must not be null");
        }
    }
}
