package io.localqueue.spring.observation.tracing;

import io.localqueue.spring.observation.JobReceiverContext;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.Map;

/**
 * Makes the spans of listener deliveries as the OpenTelemetry messaging conventions ask: the first delivery's span
 * is a child of the span that put the job (as any receiver's span is of its sender's), and a redelivery's span starts
 * a trace of its own with a link to that span (a batch: one link per job), made from the W3C {@code traceparent} stored with the job (a job put
 * under B3 propagation gets no link). It handles listener deliveries only, so it must come before Micrometer Tracing's
 * receiver handler, which then still handles every other receiver.
 *
 * @since 0.1.0
 */
public class QueueListenerTracingObservationHandler implements TracingObservationHandler<JobReceiverContext> {

    private final Tracer tracer;
    private final PropagatingReceiverTracingObservationHandler<JobReceiverContext> receiver;

    /**
     * Creates the handler.
     *
     * @param tracer the tracer spans are made with
     * @param propagator reads the trace context stored with a job
     * @since 0.1.0
     */
    public QueueListenerTracingObservationHandler(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.receiver = new PropagatingReceiverTracingObservationHandler<>(tracer, propagator) {
            @Override
            public Span.Builder customizeExtractedSpan(JobReceiverContext context, Span.Builder builder) {
                return linkedToProducer(context, builder);
            }
        };
    }

    @Override
    public void onStart(JobReceiverContext context) {
        receiver.onStart(context);
    }

    @Override
    public void onError(JobReceiverContext context) {
        receiver.onError(context);
    }

    @Override
    public void onStop(JobReceiverContext context) {
        receiver.onStop(context);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof JobReceiverContext;
    }

    @Override
    public Tracer getTracer() {
        return tracer;
    }

    /**
     * Adds to the span of a redelivery or a batch, which has no parent, a link to each producer's span a job names.
     */
    private Span.Builder linkedToProducer(JobReceiverContext context, Span.Builder builder) {
        Span.Builder linked = builder;
        for (Map<String, String> headers : context.getLinkedProducers()) {
            TraceContext producer = TraceParent.parse(headers.get(TraceParent.HEADER), tracer);
            if (producer != null) {
                linked = linked.addLink(new Link(producer));
            }
        }
        return linked;
    }
}
