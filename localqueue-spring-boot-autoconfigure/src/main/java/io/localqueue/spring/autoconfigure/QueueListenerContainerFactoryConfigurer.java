package io.localqueue.spring.autoconfigure;

import io.localqueue.WorkerObserver;
import io.localqueue.spring.ListenerErrorHandler;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.PropertyChecks;
import io.localqueue.spring.listener.DefaultQueueListenerContainerFactory;
import io.localqueue.spring.listener.JobHandlerDecorator;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * Applies {@code localqueue.listener.*}, the application's {@link WorkerObserver}s, the {@link JobHandlerDecorator}s
 * (the observation of deliveries among them) and, with virtual threads enabled, a virtual-thread executor to a
 * {@link DefaultQueueListenerContainerFactory}; use it to build further factories that start from the same
 * configuration.
 *
 * @since 0.1.0
 */
public final class QueueListenerContainerFactoryConfigurer {

    private final LocalQueueProperties.Listener listener;
    private final WorkerObserver observer;
    private final @Nullable Executor taskExecutor;
    private final Duration defaultShutdownTimeout;
    private final @Nullable ListenerErrorHandler errorHandler;
    private final JobHandlerDecorator handlerDecorator;

    QueueListenerContainerFactoryConfigurer(LocalQueueProperties.Listener listener, WorkerObserver observer,
                                            @Nullable Executor taskExecutor, Duration defaultShutdownTimeout,
                                            @Nullable ListenerErrorHandler errorHandler,
                                            JobHandlerDecorator handlerDecorator) {
        this.listener = listener;
        this.observer = observer;
        this.taskExecutor = taskExecutor;
        this.defaultShutdownTimeout = defaultShutdownTimeout;
        this.errorHandler = errorHandler;
        this.handlerDecorator = handlerDecorator;
    }

    /**
     * Configures a factory with the listener properties, observers, handler decorators and task executor; without
     * {@code localqueue.listener.shutdown-timeout}, listeners wait as long as Spring's shutdown phase allows.
     *
     * @param factory the factory to configure
     */
    public void configure(DefaultQueueListenerContainerFactory factory) {
        PropertyChecks.set("localqueue.listener.concurrency", listener.getConcurrency(),
                () -> factory.setConcurrency(listener.getConcurrency()));
        PropertyChecks.set("localqueue.listener.prefetch", listener.getPrefetch(),
                () -> factory.setPrefetch(listener.getPrefetch()));
        PropertyChecks.set("localqueue.listener.poll-interval", listener.getPollInterval(),
                () -> factory.setPollInterval(listener.getPollInterval()));
        PropertyChecks.set("localqueue.listener.heartbeat-interval", listener.getHeartbeatInterval(),
                () -> factory.setHeartbeatInterval(listener.getHeartbeatInterval()));
        factory.setAutoStartup(listener.isAutoStartup());
        Duration shutdownTimeout = listener.getShutdownTimeout();
        PropertyChecks.set("localqueue.listener.shutdown-timeout", shutdownTimeout,
                () -> factory.setShutdownTimeout(shutdownTimeout != null ? shutdownTimeout : defaultShutdownTimeout));
        factory.setAckMode(listener.getAckMode());
        PropertyChecks.set("localqueue.listener.batch-size", listener.getBatchSize(),
                () -> factory.setBatchSize(listener.getBatchSize()));
        PropertyChecks.set("localqueue.listener.batch-wait", listener.getBatchWait(),
                () -> factory.setBatchWait(listener.getBatchWait()));
        factory.setObserver(observer);
        factory.setTaskExecutor(taskExecutor);
        factory.setErrorHandler(errorHandler);
        factory.setHandlerDecorator(handlerDecorator);
    }
}
