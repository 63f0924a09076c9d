package io.localqueue.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and tags of the {@link BusHandlerObservation#HANDLER} observation; declare a bean of this type to
 * replace {@link DefaultBusHandlerObservationConvention}, or extend that class to add tags.
 *
 * @since 0.1.0
 */
public interface BusHandlerObservationConvention extends ObservationConvention<EventReceiverContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof EventReceiverContext;
    }
}
