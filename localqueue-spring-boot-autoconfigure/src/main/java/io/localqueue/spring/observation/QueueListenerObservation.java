package io.localqueue.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of each delivery a {@code @QueueListener} handles, from the call of its method to its return or
 * throw (the settlement that follows is not part of it): named {@code localqueue.listener}, tagged with the queue,
 * the listener id and the outcome, never with the payload.
 *
 * @since 0.1.0
 */
public enum QueueListenerObservation implements ObservationDocumentation {

    /**
     * One delivery handled by a listener method.
     *
     * @since 0.1.0
     */
    LISTENER {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultQueueListenerObservationConvention.class;
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

        /** The queue the job was claimed from. */
        QUEUE("queue"),

        /** The id of the listener ({@code @QueueListener(id = …)}, by default {@code bean.method}). */
        LISTENER_ID("listener.id"),

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
     * Tags kept on spans only: a value per job.
     *
     * @since 0.1.0
     */
    public enum HighCardinalityKeys implements KeyName {

        /** The job's message id. */
        JOB_ID("job.id"),

        /** How many deliveries came before this one: 0 on the first. */
        ATTEMPTS("job.attempts"),

        /** How many jobs the delivery holds: 1, or a batch's size. */
        COUNT("job.count");

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
