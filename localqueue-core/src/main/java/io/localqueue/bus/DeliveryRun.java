package io.localqueue.bus;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The context of one delivery handed to its handler.
 *
 * @param metadata the event's metadata
 * @param attempt the delivery, from 1
 * @param subscription the subscription
 * @param eventType the stored type name
 * @param headers the headers stored with the delivery, empty for none
 */
record DeliveryRun(EventMetadata metadata, int attempt, String subscription, String eventType,
                   Map<String, String> headers) implements EventContext {

    @Override
    public UUID eventId() {
        return metadata.eventId();
    }

    @Override
    public UUID correlationId() {
        return metadata.correlationId();
    }

    @Override
    public @Nullable UUID causationId() {
        return metadata.causationId();
    }

    @Override
    public Instant createdAt() {
        return metadata.createdAt();
    }
}
