package io.localqueue.spring.actuate;

import io.localqueue.QueueDiagnostics;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code localqueue} actuator endpoint: {@code GET /actuator/localqueue} reports every queue's diagnostics and
 * listeners, {@code GET /actuator/localqueue/{queue}} one queue (404 for a queue the application does not know).
 * Read-only; {@link LocalQueueRetryEndpoint} adds dead-letter replay when it is enabled.
 */
@Endpoint(id = "localqueue")
public class LocalQueueEndpoint {

    private final LocalQueueRegistry queues;
    private final @Nullable QueueListenerEndpointRegistry listeners;

    /**
     * Creates the endpoint.
     *
     * @param queues the application's queues
     * @param listeners the listener containers, or null when there are none
     */
    public LocalQueueEndpoint(LocalQueueRegistry queues, @Nullable QueueListenerEndpointRegistry listeners) {
        this.queues = queues;
        this.listeners = listeners;
    }

    /**
     * Reports every queue.
     *
     * @return diagnostics and listeners by queue name
     */
    @ReadOperation
    public QueuesDescriptor queues() {
        Map<String, QueueDescriptor> all = new LinkedHashMap<>();
        for (String name : queues.queueNames()) {
            all.put(name, describe(name));
        }
        return new QueuesDescriptor(all);
    }

    /**
     * Reports one queue.
     *
     * @param queue the queue name
     * @return its diagnostics and listeners, or null (404) when the application does not know the queue
     */
    @ReadOperation
    public @Nullable QueueDescriptor queue(@Selector String queue) {
        return queues.queueNames().contains(queue) ? describe(queue) : null;
    }

    /** Returns the registry this endpoint reports on. */
    LocalQueueRegistry registry() {
        return queues;
    }

    private QueueDescriptor describe(String name) {
        QueueDiagnostics diagnostics = queues.queue(name).diagnostics();
        List<ListenerDescriptor> running = new ArrayList<>();
        if (listeners != null) {
            for (QueueListenerContainer container : listeners.getListenerContainers()) {
                if (container.endpoint().queue().equals(name)) {
                    running.add(new ListenerDescriptor(container.endpoint().id(), container.isRunning(),
                            container.activeJobs()));
                }
            }
        }
        return new QueueDescriptor(diagnostics, running);
    }

    /**
     * Every queue of the application.
     *
     * @param queues by name
     */
    public record QueuesDescriptor(Map<String, QueueDescriptor> queues) {
    }

    /**
     * One queue.
     *
     * @param diagnostics its counts, ages and file facts
     * @param listeners the {@code @QueueListener} containers consuming it
     */
    public record QueueDescriptor(QueueDiagnostics diagnostics, List<ListenerDescriptor> listeners) {
    }

    /**
     * One listener container.
     *
     * @param id the listener id
     * @param running whether it is consuming
     * @param activeJobs how many jobs it is handling right now
     */
    public record ListenerDescriptor(String id, boolean running, int activeJobs) {
    }
}
