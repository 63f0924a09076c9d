package io.localqueue.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of each call of a {@code LocalQueueTemplate} that writes jobs or defers them to a transaction's
 * commit, waiting for room included: named {@code localqueue.template}, tagged with the queue and the outcome, never
 * with a payload.
 *
 * @since 0.1.0
 */
public enum LocalQueueTemplateObservation implements ObservationDocumentation {

    /**
     * One write of the template.
     *
     * @since 0.1.0
     */
    TEMPLATE {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultLocalQueueTemplateObservationConvention.class;
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

        /** The queue the jobs go to. */
        QUEUE("queue"),

        /** {@code success} when the write committed, {@code failure} when it threw (a full queue, say). */
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

        /** How many jobs the write puts. */
        JOB_COUNT("job.count");

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
