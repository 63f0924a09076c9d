package io.localqueue.spring.observation;

import io.localqueue.spring.observation.QueueListenerObservation.HighCardinalityKeys;
import io.localqueue.spring.observation.QueueListenerObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a listener's observation: {@code localqueue.listener}, a span named
 * {@code process <queue>}, low-cardinality {@code queue}, {@code listener.id} and {@code outcome}, high-cardinality
 * {@code job.id} and {@code job.attempts} (of a batch's first job) and {@code job.count}.
 *
 * @since 0.1.0
 */
public class DefaultQueueListenerObservationConvention implements QueueListenerObservationConvention {

    /**
     * The convention's one instance, for when it is not extended.
     *
     * @since 0.1.0
     */
    public static final DefaultQueueListenerObservationConvention INSTANCE =
            new DefaultQueueListenerObservationConvention();

    /** The observation's name, hence its meters' names. */
    static final String NAME = "localqueue.listener";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(JobReceiverContext context) {
        return "process " + context.getQueue();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(JobReceiverContext context) {
        return KeyValues.of(LowCardinalityKeys.QUEUE.withValue(context.getQueue()),
                LowCardinalityKeys.LISTENER_ID.withValue(context.getListenerId()),
                LowCardinalityKeys.OUTCOME.withValue(ObservedOutcome.of(context)));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(JobReceiverContext context) {
        return KeyValues.of(HighCardinalityKeys.JOB_ID.withValue(Long.toString(context.getJob().id())),
                HighCardinalityKeys.ATTEMPTS.withValue(Integer.toString(context.getJob().attempts())),
                HighCardinalityKeys.COUNT.withValue(Integer.toString(context.getJobs().size())));
    }
}
