package io.localqueue.spring.observation;

import io.localqueue.BatchJobHandler;
import io.localqueue.JobHandler;
import io.localqueue.spring.listener.JobHandlerDecorator;
import io.localqueue.spring.listener.QueueListenerEndpoint;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes every delivery a listener handles ({@link QueueListenerObservation#LISTENER}); with a tracing bridge the
 * handler's span continues the trace stored with the job. With a no-op registry the handlers run unobserved, at no
 * cost beyond a check per delivery.
 *
 * @since 0.1.0
 */
public class ObservingJobHandlerDecorator implements JobHandlerDecorator {

    private final ObservationRegistry registry;
    private final @Nullable QueueListenerObservationConvention convention;

    /**
     * Creates the decorator.
     *
     * @param registry where the observations go
     * @param convention replaces {@link DefaultQueueListenerObservationConvention}, or null to keep it
     * @since 0.1.0
     */
    public ObservingJobHandlerDecorator(ObservationRegistry registry,
                                        @Nullable QueueListenerObservationConvention convention) {
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public <T> JobHandler<T> decorate(QueueListenerEndpoint endpoint, JobHandler<T> handler) {
        return new ObservedJobHandler<>(handler, endpoint.id(), registry, convention);
    }

    @Override
    public <T> BatchJobHandler<T> decorateBatch(QueueListenerEndpoint endpoint, BatchJobHandler<T> handler) {
        return jobs -> ObservedJobHandler.observe(registry, convention, new JobReceiverContext(jobs, endpoint.id()),
                () -> handler.handle(jobs));
    }
}
