package io.localqueue.bus;

import io.localqueue.LocalQueueException;

/**
 * No subscription of the bus's topology routes the event's type, and the bus requires subscribers; nothing was
 * written.
 *
 * @since 0.1.0
 */
public class NoSubscribersException extends LocalQueueException {

    private static final long serialVersionUID = 1L;

    private final String eventType;

    /**
     * Creates the exception.
     *
     * @param eventType the event type nobody subscribes to
     */
    public NoSubscribersException(String eventType) {
        super("no subscription for '" + eventType + "'");
        this.eventType = eventType;
    }

    /**
     * Returns the event type nobody subscribes to.
     *
     * @return the event type
     */
    public String eventType() {
        return eventType;
    }
}
