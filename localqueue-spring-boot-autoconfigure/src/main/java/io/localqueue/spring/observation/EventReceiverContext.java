package io.localqueue.spring.observation;

import io.localqueue.bus.EventContext;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.List;
import java.util.Map;

/**
 * The context of one delivery an {@code @EventHandler} method handles. On the first delivery
 * ({@code attempt() == 1}) its carrier holds every header stored with the delivery, so that a tracing bridge makes
 * the dispatcher's span the parent of the handler's; on a redelivery the trace-context headers are withheld (baggage
 * stays), so that the handler's span starts a trace of its own, linked to the dispatcher's span by a tracing
 * handler, as for a {@code @QueueListener}.
 *
 * @since 0.1.0
 */
public class EventReceiverContext extends ReceiverContext<Map<String, String>> implements LinkedProducers {

    private final String bus;
    private final String handlerId;
    private final EventContext delivery;

    /**
     * Creates the context of one delivery handed to the handler {@code handlerId} of bus {@code bus}.
     *
     * @param bus the bus's name
     * @param handlerId the handler's id ({@code bean.method} for an {@code @EventHandler} method)
     * @param delivery the delivery's context, as the handler gets it
     * @since 0.1.0
     */
    public EventReceiverContext(String bus, String handlerId, EventContext delivery) {
        super(HeaderCarriers.GETTER);
        this.bus = bus;
        this.handlerId = handlerId;
        this.delivery = delivery;
        setCarrier(HeaderCarriers.received(delivery.headers(), isRedelivery()));
    }

    /**
     * Returns the bus's name.
     *
     * @return the name
     * @since 0.1.0
     */
    public String getBus() {
        return bus;
    }

    /**
     * Returns the id of the handler the delivery goes to.
     *
     * @return the handler id
     * @since 0.1.0
     */
    public String getHandlerId() {
        return handlerId;
    }

    /**
     * Returns the delivery's context: the event's metadata, the attempt, the subscription and the stored headers.
     *
     * @return the context
     * @since 0.1.0
     */
    public EventContext getDelivery() {
        return delivery;
    }

    /**
     * Tells whether deliveries of the event to this subscription came before this one, so that its span is linked to
     * the dispatcher's rather than its child; a replayed dead letter starts again at its first delivery.
     *
     * @return true from the second delivery on
     * @since 0.1.0
     */
    public boolean isRedelivery() {
        return delivery.attempt() > 1;
    }

    /**
     * Returns the headers of the dispatch the handler's span links to: none on the first delivery (the dispatcher's
     * span is its parent), the delivery's on a redelivery.
     *
     * @return the dispatch's headers, one map or none
     * @since 0.1.0
     */
    @Override
    public List<Map<String, String>> getLinkedProducers() {
        return isRedelivery() ? List.of(delivery.headers()) : List.of();
    }
}
