package io.localqueue.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and tags of the {@link BusDispatchObservation#DISPATCH} observation; declare a bean of this type to
 * replace {@link DefaultBusDispatchObservationConvention}, or extend that class to add tags.
 *
 * @since 0.1.0
 */
public interface BusDispatchObservationConvention extends ObservationConvention<EventSenderContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof EventSenderContext;
    }
}
