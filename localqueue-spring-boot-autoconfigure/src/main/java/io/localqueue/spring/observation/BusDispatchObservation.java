package io.localqueue.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of each dispatch of the event bus that stores deliveries ({@code dispatch}, {@code dispatchAll},
 * each ingestion batch with its waits for room), never of the events a handler returns: named
 * {@code localqueue.bus.dispatch}, tagged with the bus, the event type and the outcome, never with a payload.
 *
 * @since 0.1.0
 */
public enum BusDispatchObservation implements ObservationDocumentation {

    /**
     * One dispatch.
     *
     * @since 0.1.0
     */
    DISPATCH {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultBusDispatchObservationConvention.class;
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

        /** The type name of the events, or {@code mixed} when one dispatch holds several types. */
        EVENT("event"),

        /** {@code success} when the dispatch committed, {@code failure} when it threw (no subscribers, say). */
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
     * Tags kept on spans only.
     *
     * @since 0.1.0
     */
    public enum HighCardinalityKeys implements KeyName {

        /** How many events the dispatch writes. */
        EVENT_COUNT("event.count");

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
