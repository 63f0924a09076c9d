package io.localqueue.spring.listener;

/**
 * Builds the container that runs a listener endpoint; name a bean of this type in
 * {@code @QueueListener(containerFactory = …)} to run some listeners differently.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface QueueListenerContainerFactory {

    /**
     * Creates a stopped container for an endpoint; invalid settings (such as a heartbeat not shorter than the
     * queue's lease) throw {@link IllegalArgumentException} naming them, a {@link QueueListenerConfigurationException}
     * from the default factory.
     *
     * @param endpoint the listener
     * @return the container
     */
    QueueListenerContainer createContainer(QueueListenerEndpoint endpoint);
}
