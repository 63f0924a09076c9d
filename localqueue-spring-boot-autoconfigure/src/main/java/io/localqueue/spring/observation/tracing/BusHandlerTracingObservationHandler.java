package io.localqueue.spring.observation.tracing;

import io.localqueue.spring.observation.EventReceiverContext;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

/**
 * Makes the spans of event handler deliveries as the OpenTelemetry messaging conventions ask: the first delivery's
 * span is a child of the span that dispatched the event, and a redelivery's span starts a trace of its own with a
 * link to that span, made from the W3C {@code traceparent} stored with the delivery (one dispatched under B3
 * propagation gets no link). It handles event handler deliveries only, so it must come before Micrometer Tracing's
 * receiver handler, which then still handles every other receiver.
 *
 * @since 0.1.0
 */
public class BusHandlerTracingObservationHandler
        extends ProducerLinkingTracingObservationHandler<EventReceiverContext> {

    /**
     * Creates the handler.
     *
     * @param tracer the tracer spans are made with
     * @param propagator reads the trace context stored with a delivery
     * @since 0.1.0
     */
    public BusHandlerTracingObservationHandler(Tracer tracer, Propagator propagator) {
        super(tracer, propagator);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof EventReceiverContext;
    }
}
