package io.localqueue.spring.observation;

import io.localqueue.Job;
import io.localqueue.JobHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Runs a listener's handler inside an observation of the delivery, in scope on the handler's thread, and lets what
 * the handler throws through unchanged after recording it.
 */
final class ObservedJobHandler<T> implements JobHandler<T> {

    private final JobHandler<T> handler;
    private final String listenerId;
    private final ObservationRegistry registry;
    private final @Nullable QueueListenerObservationConvention convention;

    ObservedJobHandler(JobHandler<T> handler, String listenerId, ObservationRegistry registry,
                       @Nullable QueueListenerObservationConvention convention) {
        this.handler = handler;
        this.listenerId = listenerId;
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public void handle(Job<T> job) throws Exception {
        observe(registry, convention, new JobReceiverContext(job, listenerId), () -> handler.handle(job));
    }

    /** Runs {@code work} in scope of a listener observation of {@code context}, recording what it throws. */
    static void observe(ObservationRegistry registry, @Nullable QueueListenerObservationConvention convention,
                        JobReceiverContext context, Observation.CheckedRunnable<Exception> work) throws Exception {
        QueueListenerObservation.LISTENER.observation(convention, DefaultQueueListenerObservationConvention.INSTANCE,
                () -> context, registry).observeChecked(work);
    }
}
