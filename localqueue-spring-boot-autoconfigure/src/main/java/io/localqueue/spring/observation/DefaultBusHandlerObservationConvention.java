package io.localqueue.spring.observation;

import io.localqueue.bus.EventContext;
import io.localqueue.spring.observation.BusHandlerObservation.HighCardinalityKeys;
import io.localqueue.spring.observation.BusHandlerObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of an event handler's observation: {@code localqueue.bus.handler}, a span named
 * {@code process <subscription>}, low-cardinality {@code bus}, {@code subscription}, {@code event},
 * {@code handler.id} and {@code outcome}, high-cardinality {@code event.id} and {@code delivery.attempt}.
 *
 * @since 0.1.0
 */
public class DefaultBusHandlerObservationConvention implements BusHandlerObservationConvention {

    /**
     * The convention's one instance, for when it is not extended.
     *
     * @since 0.1.0
     */
    public static final DefaultBusHandlerObservationConvention INSTANCE = new DefaultBusHandlerObservationConvention();

    /** The observation's name, hence its meters' names. */
    static final String NAME = "localqueue.bus.handler";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(EventReceiverContext context) {
        return "process " + context.getDelivery().subscription();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(EventReceiverContext context) {
        EventContext delivery = context.getDelivery();
        return KeyValues.of(LowCardinalityKeys.BUS.withValue(context.getBus()),
                LowCardinalityKeys.SUBSCRIPTION.withValue(delivery.subscription()),
                LowCardinalityKeys.EVENT.withValue(delivery.eventType()),
                LowCardinalityKeys.HANDLER_ID.withValue(context.getHandlerId()),
                LowCardinalityKeys.OUTCOME.withValue(ObservedOutcome.of(context)));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(EventReceiverContext context) {
        EventContext delivery = context.getDelivery();
        return KeyValues.of(HighCardinalityKeys.EVENT_ID.withValue(delivery.eventId().toString()),
                HighCardinalityKeys.ATTEMPT.withValue(Integer.toString(delivery.attempt())));
    }
}
