package io.localqueue.spring.observation;

import io.localqueue.spring.observation.BusDispatchObservation.HighCardinalityKeys;
import io.localqueue.spring.observation.BusDispatchObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a bus dispatch's observation: {@code localqueue.bus.dispatch}, a span named
 * {@code send <event type>} ({@code send <bus>} when a dispatch holds several types), low-cardinality {@code bus},
 * {@code event} and {@code outcome}, high-cardinality {@code event.count}.
 *
 * @since 0.1.0
 */
public class DefaultBusDispatchObservationConvention implements BusDispatchObservationConvention {

    /**
     * The convention's one instance, for when it is not extended.
     *
     * @since 0.1.0
     */
    public static final DefaultBusDispatchObservationConvention INSTANCE =
            new DefaultBusDispatchObservationConvention();

    /** The observation's name, hence its meters' names. */
    static final String NAME = "localqueue.bus.dispatch";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(EventSenderContext context) {
        String type = context.getEventType();
        return "send " + (type.equals(EventSenderContext.MIXED_EVENT_TYPES) ? context.getBus() : type);
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(EventSenderContext context) {
        return KeyValues.of(LowCardinalityKeys.BUS.withValue(context.getBus()),
                LowCardinalityKeys.EVENT.withValue(context.getEventType()),
                LowCardinalityKeys.OUTCOME.withValue(ObservedOutcome.of(context)));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(EventSenderContext context) {
        return KeyValues.of(HighCardinalityKeys.EVENT_COUNT.withValue(Integer.toString(context.getEventCount())));
    }
}
