package io.localqueue.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and tags of the {@link QueueListenerObservation#LISTENER} observation; declare a bean of this type to
 * replace {@link DefaultQueueListenerObservationConvention}, or extend that class to add tags.
 *
 * @since 0.1.0
 */
public interface QueueListenerObservationConvention extends ObservationConvention<JobReceiverContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof JobReceiverContext;
    }
}
