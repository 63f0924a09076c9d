package io.localqueue.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of each delivery an {@code @EventHandler} method handles, from the call of the method to its
 * return or throw (the settlement that follows, and the storing of the events it returned, are not part of it):
 * named {@code localqueue.bus.handler}, tagged with the bus, the subscription, the event type, the handler and the
 * outcome, never with the payload.
 *
 * @since 0.1.0
 */
public enum BusHandlerObservation implements ObservationDocumentation {

    /**
     * One delivery handled by an event handler method.
     *
     * @since 0.1.0
     */
    HANDLER {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultBusHandlerObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeys.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeys.values();
        }
    };

    /**
     * Tags that become meter tags: few values each.
     *
     * @since 0.1.0
     */
    public enum LowCardinalityKeys implements KeyName {

        /** The bus's name. */
        BUS("bus"),

        /** The subscription the event was delivered through. */
        SUBSCRIPTION("subscription"),

        /** The event's type name. */
        EVENT("event"),

        /** The id of the handler ({@code bean.method}). */
        HANDLER_ID("handler.id"),

        /** {@code success} when the method returned, {@code failure} when it threw. */
        OUTCOME("outcome");

        private final String key;

        LowCardinalityKeys(String key) {
            this.key = key;
        }

        @Override
        public String asString() {
            return key;
        }
    }

    /**
     * Tags kept on spans only: a value per delivery.
     *
     * @since 0.1.0
     */
    public enum HighCardinalityKeys implements KeyName {

        /** The event's id. */
        EVENT_ID("event.id"),

        /** Which delivery of the event to the subscription this is: 1 on the first. */
        ATTEMPT("delivery.attempt");

        private final String key;

        HighCardinalityKeys(String key) {
            this.key = key;
        }

        @Override
        public String asString() {
            return key;
        }
    }
}
