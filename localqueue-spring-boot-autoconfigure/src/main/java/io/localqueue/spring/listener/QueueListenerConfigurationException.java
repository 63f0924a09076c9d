package io.localqueue.spring.listener;

/**
 * A listener's container cannot be built from its settings, such as a poll interval of zero or a heartbeat not
 * shorter than the queue's lease; names the listener, its queue and the {@code localqueue.listener.*} property that
 * usually holds the setting (a container factory of the application's own may have set it instead).
 *
 * @since 0.1.0
 */
public class QueueListenerConfigurationException extends IllegalArgumentException {

    private final String listenerId;
    private final String queue;
    private final String property;

    /**
     * Creates the exception.
     *
     * @param endpoint the listener whose container could not be built
     * @param property the property that usually holds the refused setting
     * @param refused why the setting was refused
     */
    public QueueListenerConfigurationException(QueueListenerEndpoint endpoint, String property,
                                               IllegalArgumentException refused) {
        super("@QueueListener '" + endpoint.id() + "' on queue '" + endpoint.queue() + "' is misconfigured: "
                + refused.getMessage() + " (" + property + ", or its container factory's own setting)", refused);
        this.listenerId = endpoint.id();
        this.queue = endpoint.queue();
        this.property = property;
    }

    /**
     * Returns the listener's id.
     *
     * @return the id
     */
    public String listenerId() {
        return listenerId;
    }

    /**
     * Returns the queue the listener consumes.
     *
     * @return the queue name
     */
    public String queue() {
        return queue;
    }

    /**
     * Returns the property that usually holds the refused setting.
     *
     * @return a {@code localqueue.listener.*} property name
     */
    public String property() {
        return property;
    }
}
