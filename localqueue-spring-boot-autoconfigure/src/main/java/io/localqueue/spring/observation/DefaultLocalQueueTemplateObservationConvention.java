package io.localqueue.spring.observation;

import io.localqueue.spring.observation.LocalQueueTemplateObservation.HighCardinalityKeys;
import io.localqueue.spring.observation.LocalQueueTemplateObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a template write's observation: {@code localqueue.template}, a span named
 * {@code send <queue>}, low-cardinality {@code queue} and {@code outcome}, high-cardinality {@code job.count}.
 *
 * @since 0.1.0
 */
public class DefaultLocalQueueTemplateObservationConvention implements LocalQueueTemplateObservationConvention {

    /**
     * The convention's one instance, for when it is not extended.
     *
     * @since 0.1.0
     */
    public static final DefaultLocalQueueTemplateObservationConvention INSTANCE =
            new DefaultLocalQueueTemplateObservationConvention();

    /** The observation's name, hence its meters' names. */
    static final String NAME = "localqueue.template";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(JobSenderContext context) {
        return "send " + context.getQueue();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(JobSenderContext context) {
        return KeyValues.of(LowCardinalityKeys.QUEUE.withValue(context.getQueue()),
                LowCardinalityKeys.OUTCOME.withValue(ObservedOutcome.of(context)));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(JobSenderContext context) {
        return KeyValues.of(HighCardinalityKeys.JOB_COUNT.withValue(Integer.toString(context.getJobCount())));
    }
}
