package io.localqueue.spring.listener;

import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import java.time.Duration;

/**
 * Builds listener containers with the {@code localqueue.listener.*} defaults: each listener's own concurrency and
 * auto-startup win, its queue's lease sets the default heartbeat (a third of it), and every worker reports to the
 * observer (metrics).
 */
public class DefaultQueueListenerContainerFactory implements QueueListenerContainerFactory {

    private final LocalQueueRegistry queues;
    private final LocalQueueProperties.Listener defaults;
    private final WorkerObserver observer;

    /**
     * Creates the factory.
     *
     * @param queues the application's queues
     * @param defaults listener defaults
     * @param observer told about every finished job
     */
    public DefaultQueueListenerContainerFactory(LocalQueueRegistry queues, LocalQueueProperties.Listener defaults,
                                                WorkerObserver observer) {
        this.queues = queues;
        this.defaults = defaults;
        this.observer = observer;
    }

    @Override
    public QueueListenerContainer createContainer(QueueListenerEndpoint endpoint) {
        boolean autoStartup = endpoint.autoStartup() != null ? endpoint.autoStartup() : defaults.isAutoStartup();
        return new QueueListenerContainer(endpoint, () -> worker(endpoint), autoStartup);
    }

    private <T> Worker<T> worker(QueueListenerEndpoint endpoint) {
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) endpoint.payloadType();
        SimpleQueue<T> queue = queues.queue(endpoint.queue(), type);
        Duration heartbeat = defaults.getHeartbeatInterval() != null
                ? defaults.getHeartbeatInterval() : queue.delivery().lease().dividedBy(3);
        try {
            Worker.Builder<T> builder = Worker.builder(queue,
                            new MethodJobHandler<T>(endpoint.bean(), endpoint.method(), endpoint.takesJob()))
                    .name(endpoint.id())
                    .concurrency(endpoint.concurrency() != null ? endpoint.concurrency() : defaults.getConcurrency())
                    .pollInterval(defaults.getPollInterval())
                    .shutdownTimeout(defaults.getShutdownTimeout())
                    .observer(observer);
            if (!heartbeat.isZero()) {
                builder.heartbeatInterval(heartbeat);
            }
            @SuppressWarnings("unchecked")
            Class<? extends Throwable>[] permanent = endpoint.permanentErrors().toArray(new Class[0]);
            return builder.permanentErrors(permanent).build();
        } catch (IllegalArgumentException invalid) {
            throw new IllegalArgumentException("@QueueListener '" + endpoint.id() + "' on queue '" + endpoint.queue()
                    + "' is misconfigured: " + invalid.getMessage(), invalid);
        }
    }
}
