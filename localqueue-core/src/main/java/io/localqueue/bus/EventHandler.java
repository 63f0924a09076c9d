package io.localqueue.bus;

import org.jspecify.annotations.Nullable;

/**
 * Handles the events of one type (or of every type, for a wildcard handler) delivered through a subscription.
 * Returning normally acknowledges the delivery; returning an event, an {@link EventEnvelope} or a collection of
 * them acknowledges it and stores their fan-out in the same transaction, so either both happen or neither does.
 * Throwing {@link RetryException}, {@link RejectException} or a permanent error settles the delivery as they say;
 * any other exception retries it under the subscription's retry policy.
 *
 * @param <E> the event type
 * @since 0.1.0
 */
@FunctionalInterface
public interface EventHandler<E> {

    /**
     * Handles one delivery; it may run again for the same event after a crash, so it should be idempotent.
     *
     * @param event the event
     * @param context the delivery's metadata
     * @return null, or the events to emit
     * @throws Exception to retry or reject the delivery
     */
    @Nullable Object handle(E event, EventContext context) throws Exception;
}
