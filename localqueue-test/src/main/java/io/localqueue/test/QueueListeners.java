package io.localqueue.test;

import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The application's {@code @QueueListener} containers, found by queue, and the one way the kit runs them on the
 * caller's thread.
 */
final class QueueListeners {

    private final ObjectProvider<QueueListenerEndpointRegistry> registry;

    QueueListeners(ObjectProvider<QueueListenerEndpointRegistry> registry) {
        this.registry = registry;
    }

    /** Returns the containers of the listeners of {@code queue} created so far; none without a listener registry. */
    List<QueueListenerContainer> of(String queue) {
        QueueListenerEndpointRegistry listeners = registry.getIfAvailable();
        if (listeners == null) {
            return List.of();
        }
        return listeners.getListenerContainers().stream()
                .filter(container -> container.endpoint().queue().equals(queue))
                .toList();
    }

    /**
     * Runs the listeners of {@code queue} on the calling thread until none finds a due job, each job's outcome
     * recorded before the next is claimed.
     *
     * @return true when at least one job was handled
     */
    boolean runDue(String queue) {
        List<QueueListenerContainer> containers = of(queue);
        boolean any = false;
        boolean ran;
        do {
            ran = false;
            for (QueueListenerContainer container : containers) {
                while (container.runOnce()) {
                    ran = true;
                }
            }
            any |= ran;
        } while (ran);
        return any;
    }
}
