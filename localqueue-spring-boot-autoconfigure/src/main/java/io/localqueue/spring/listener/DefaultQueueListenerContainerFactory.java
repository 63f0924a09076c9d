package io.localqueue.spring.listener;

import io.localqueue.RetryPolicy;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.AckMode;
import io.localqueue.spring.ListenerErrorHandler;
import io.localqueue.spring.LocalQueueRegistry;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * Builds listener containers: each listener's own concurrency and auto-startup win over this factory's, its queue's
 * lease sets the default heartbeat ({@link Worker#defaultHeartbeatInterval}), and every worker reports to the
 * observer (metrics). Without a task executor each listener's worker runs on threads of its own. The defaults are
 * {@link Worker}'s; Spring Boot's auto-configuration applies {@code localqueue.listener.*} through
 * {@code QueueListenerContainerFactoryConfigurer}.
 *
 * @since 0.1.0
 */
public class DefaultQueueListenerContainerFactory implements QueueListenerContainerFactory {

    private final LocalQueueRegistry queues;
    private int concurrency = Worker.DEFAULT_CONCURRENCY;
    private int prefetch = Worker.DEFAULT_PREFETCH;
    private Duration pollInterval = Worker.DEFAULT_POLL_INTERVAL;
    private @Nullable Duration heartbeatInterval;
    private boolean autoStartup = true;
    private Duration shutdownTimeout = Worker.DEFAULT_SHUTDOWN_TIMEOUT;
    private WorkerObserver observer = WorkerObserver.NONE;
    private @Nullable Executor taskExecutor;
    private AckMode ackMode = AckMode.AUTO;
    private int batchSize = Worker.DEFAULT_BATCH_SIZE;
    private Duration batchWait = Duration.ZERO;
    private @Nullable ListenerErrorHandler errorHandler;
    private JobHandlerDecorator handlerDecorator = JobHandlerDecorator.NONE;

    /**
     * Creates the factory with {@link Worker}'s defaults.
     *
     * @param queues the application's queues
     */
    public DefaultQueueListenerContainerFactory(LocalQueueRegistry queues) {
        this.queues = queues;
    }

    /**
     * Sets how many invocations of a listener run at once, unless the listener says.
     *
     * @param concurrency at least 1
     * @throws IllegalArgumentException when below 1, even if every listener sets its own
     */
    public void setConcurrency(int concurrency) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        this.concurrency = concurrency;
    }

    /**
     * Sets how many jobs a listener may claim ahead of its invocations, beyond one for each idle invocation; batch
     * listeners claim only their batches.
     *
     * @param prefetch 0 to {@value Worker#MAX_PREFETCH}
     * @throws IllegalArgumentException when out of that range
     * @since 0.1.0
     */
    public void setPrefetch(int prefetch) {
        if (prefetch < 0 || prefetch > Worker.MAX_PREFETCH) {
            throw new IllegalArgumentException("prefetch must be between 0 and " + Worker.MAX_PREFETCH + ", got "
                    + prefetch);
        }
        this.prefetch = prefetch;
    }

    /**
     * Sets how long an idle listener waits for a job before looking again.
     *
     * @param pollInterval at least one millisecond
     * @throws IllegalArgumentException when null or shorter
     */
    public void setPollInterval(Duration pollInterval) {
        if (pollInterval == null || pollInterval.toMillis() < 1) {
            throw new IllegalArgumentException("poll interval must be at least 1ms, got " + pollInterval);
        }
        this.pollInterval = pollInterval;
    }

    /**
     * Sets how often running jobs' leases are renewed; null means a third of each queue's lease.
     *
     * @param heartbeatInterval positive and shorter than every listened queue's lease, or null
     * @throws IllegalArgumentException when {@code heartbeatInterval} is zero or negative
     */
    public void setHeartbeatInterval(@Nullable Duration heartbeatInterval) {
        if (heartbeatInterval != null && (heartbeatInterval.isZero() || heartbeatInterval.isNegative())) {
            throw new IllegalArgumentException("heartbeat interval must be positive, got " + heartbeatInterval);
        }
        this.heartbeatInterval = heartbeatInterval;
    }

    /**
     * Sets whether containers start with the context, unless the listener says.
     *
     * @param autoStartup the flag
     */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    /**
     * Sets how long a stop waits for running invocations; the registry never waits longer than Spring's shutdown
     * phase allows, and warns at start when this is longer.
     *
     * @param shutdownTimeout zero or more
     * @throws IllegalArgumentException when {@code shutdownTimeout} is null or negative
     */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("shutdown timeout must be zero or more, got " + shutdownTimeout);
        }
        this.shutdownTimeout = shutdownTimeout;
    }

    /**
     * Sets who is told about every finished job.
     *
     * @param observer the observer
     */
    public void setObserver(WorkerObserver observer) {
        this.observer = observer;
    }

    /**
     * Sets the executor listeners' threads run on, such as one of virtual threads; it must run every listener's
     * {@code concurrency} long-lived tasks at once. Null gives each listener threads of its own.
     *
     * @param taskExecutor the executor, or null
     */
    public void setTaskExecutor(@Nullable Executor taskExecutor) {
        this.taskExecutor = taskExecutor;
    }

    /**
     * Sets how listeners that do not say settle their jobs; a MANUAL default refuses listeners without an
     * {@code Acknowledgement} parameter when their container is built.
     *
     * @param ackMode the mode
     * @since 0.1.0
     */
    public void setAckMode(AckMode ackMode) {
        this.ackMode = ackMode;
    }

    /**
     * Sets the most jobs in a batch of batch listeners that do not say.
     *
     * @param batchSize 1 to {@value Worker#MAX_BATCH_SIZE}
     * @throws IllegalArgumentException when out of that range, even if every batch listener sets its own
     * @since 0.1.0
     */
    public void setBatchSize(int batchSize) {
        if (batchSize < 1 || batchSize > Worker.MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("batch size must be between 1 and " + Worker.MAX_BATCH_SIZE
                    + ", got " + batchSize);
        }
        this.batchSize = batchSize;
    }

    /**
     * Sets how long a batch that is not full waits for more jobs, for batch listeners that do not say.
     *
     * @param batchWait zero or more; under half the queue's lease, which is checked when a container is built
     * @throws IllegalArgumentException when null or negative, even if every batch listener sets its own
     * @since 0.1.0
     */
    public void setBatchWait(Duration batchWait) {
        if (batchWait == null || batchWait.isNegative()) {
            throw new IllegalArgumentException("batch wait must be zero or more, got " + batchWait);
        }
        this.batchWait = batchWait;
    }

    /**
     * Sets who sees every exception a listener method throws before its job is settled; null for nobody.
     *
     * @param errorHandler the handler, or null
     * @since 0.1.0
     */
    public void setErrorHandler(@Nullable ListenerErrorHandler errorHandler) {
        this.errorHandler = errorHandler;
    }

    /**
     * Sets what wraps the handler of each listener that takes one job at a time (batch listeners keep theirs), such
     * as an observation of every delivery; by default nothing does.
     *
     * @param handlerDecorator the decorator
     * @since 0.1.0
     */
    public void setHandlerDecorator(JobHandlerDecorator handlerDecorator) {
        this.handlerDecorator = handlerDecorator;
    }

    @Override
    public QueueListenerContainer createContainer(QueueListenerEndpoint endpoint) {
        boolean starts = endpoint.autoStartup() != null ? endpoint.autoStartup() : autoStartup;
        return new QueueListenerContainer(endpoint, () -> worker(endpoint), starts, shutdownTimeout);
    }

    private Worker<Object> worker(QueueListenerEndpoint endpoint) {
        @SuppressWarnings("unchecked")
        SimpleQueue<Object> queue = (SimpleQueue<Object>) queues.queue(endpoint.queue(),
                endpoint.signature().payloadType());
        Duration heartbeat = heartbeatInterval != null ? heartbeatInterval
                : Worker.defaultHeartbeatInterval(queue.delivery().lease());
        int threads = endpoint.concurrency() != null ? endpoint.concurrency() : concurrency;
        Worker.Builder<Object> builder = builder(endpoint, queue);
        builder.name(endpoint.id()).observer(ListenerAwareObserver.of(observer, endpoint.id()));
        apply(endpoint, "localqueue.listener.concurrency", () -> builder.concurrency(threads));
        if (!endpoint.signature().batch()) {
            apply(endpoint, "localqueue.listener.prefetch", () -> builder.prefetch(prefetch));
        }
        apply(endpoint, "localqueue.listener.poll-interval", () -> builder.pollInterval(pollInterval));
        apply(endpoint, "localqueue.listener.shutdown-timeout", () -> builder.shutdownTimeout(shutdownTimeout));
        RetryPolicy retry = queues.settings().retryFor(endpoint.queue());
        apply(endpoint, "localqueue.delivery.backoff", () -> builder.retry(retry));
        if (!heartbeat.isZero()) {
            apply(endpoint, "localqueue.listener.heartbeat-interval", () -> builder.heartbeatInterval(heartbeat));
        }
        Executor executor = taskExecutor;
        if (executor != null) {
            builder.executor(executor);
        }
        @SuppressWarnings("unchecked")
        Class<? extends Throwable>[] permanent = endpoint.permanentErrors().toArray(new Class[0]);
        return builder.permanentErrors(permanent).build();
    }

    /** A batch worker's builder with its batch settings, or a single-job one in the listener's ack mode. */
    private Worker.Builder<Object> builder(QueueListenerEndpoint endpoint, SimpleQueue<Object> queue) {
        ListenerSignature signature = endpoint.signature();
        if (signature.batch()) {
            Worker.Builder<Object> builder = Worker.batchBuilder(queue,
                    handlerDecorator.decorateBatch(endpoint, new MethodBatchHandler<>(endpoint, errorHandler)));
            int size = endpoint.batchSize() != null ? endpoint.batchSize() : batchSize;
            Duration wait = endpoint.batchWait() != null ? endpoint.batchWait() : batchWait;
            apply(endpoint, "localqueue.listener.batch-size", () -> builder.batchSize(size));
            apply(endpoint, "localqueue.listener.batch-wait", () -> builder.batchWait(wait));
            return builder;
        }
        AckMode mode = endpoint.ackMode() != null ? endpoint.ackMode() : ackMode;
        if (mode == AckMode.MANUAL && !signature.takesAcknowledgement()) {
            throw new QueueListenerConfigurationException(endpoint, "localqueue.listener.ack-mode",
                    new IllegalArgumentException("MANUAL acknowledgement needs the method to take an "
                            + "Acknowledgement parameter; " + endpoint.method().getName() + " takes " + signature));
        }
        return Worker.builder(queue, handlerDecorator.decorate(endpoint, new MethodJobHandler<>(endpoint,
                mode == AckMode.MANUAL ? queue : null, errorHandler)));
    }

    /** Applies one setting, so that a refusal names the property that usually holds it. */
    private static void apply(QueueListenerEndpoint endpoint, String property, Runnable setting) {
        try {
            setting.run();
        } catch (IllegalArgumentException refused) {
            throw new QueueListenerConfigurationException(endpoint, property, refused);
        }
    }
}
