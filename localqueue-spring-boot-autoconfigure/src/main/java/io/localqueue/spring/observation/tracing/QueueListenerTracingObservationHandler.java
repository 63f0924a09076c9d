package io.localqueue.spring.observation.tracing;

import io.localqueue.spring.observation.JobReceiverContext;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

/**
 * Makes the spans of listener deliveries as the OpenTelemetry messaging conventions ask: the first delivery's span
 * is a child of the span that put the job (as any receiver's span is of its sender's), and a redelivery's span starts
 * a trace of its own with a link to that span (a batch: one link per job), made from the W3C {@code traceparent}
 * stored with the job (a job put under B3 propagation gets no link). It handles listener deliveries only, so it must
 * come before Micrometer Tracing's receiver handler, which then still handles every other receiver.
 *
 * @since 0.1.0
 */
public class QueueListenerTracingObservationHandler
        extends ProducerLinkingTracingObservationHandler<JobReceiverContext> {

    /**
     * Creates the handler.
     *
     * @param tracer the tracer spans are made with
     * @param propagator reads the trace context stored with a job
     * @since 0.1.0
     */
    public QueueListenerTracingObservationHandler(Tracer tracer, Propagator propagator) {
        super(tracer, propagator);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof JobReceiverContext;
    }
}
