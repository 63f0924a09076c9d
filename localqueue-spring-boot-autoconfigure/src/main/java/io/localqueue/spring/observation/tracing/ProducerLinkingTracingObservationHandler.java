package io.localqueue.spring.observation.tracing;

import io.localqueue.spring.observation.LinkedProducers;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.Map;

/**
 * Makes the spans of one kind of localqueue delivery as the OpenTelemetry messaging conventions ask: a first
 * delivery's span is a child of the producer's span (as any receiver's span is of its sender's), and the span of a
 * redelivery or a batch starts a trace of its own with a link to each producer's span its context names, made from
 * the W3C {@code traceparent} stored with the job or delivery (one stored under B3 propagation gets no link). Each
 * subclass handles one kind of context only, so that Micrometer Tracing's receiver handler, ordered after it, still
 * handles every other receiver.
 *
 * @param <C> the context it handles
 */
abstract class ProducerLinkingTracingObservationHandler<C extends ReceiverContext<Map<String, String>> & LinkedProducers>
        implements TracingObservationHandler<C> {

    private final Tracer tracer;
    private final PropagatingReceiverTracingObservationHandler<C> receiver;

    ProducerLinkingTracingObservationHandler(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.receiver = new PropagatingReceiverTracingObservationHandler<>(tracer, propagator) {
            @Override
            public Span.Builder customizeExtractedSpan(C context, Span.Builder builder) {
                return linkedToProducers(context, builder);
            }
        };
    }

    @Override
    public void onStart(C context) {
        receiver.onStart(context);
    }

    @Override
    public void onError(C context) {
        receiver.onError(context);
    }

    @Override
    public void onStop(C context) {
        receiver.onStop(context);
    }

    @Override
    public Tracer getTracer() {
        return tracer;
    }

    /** Adds to the span a link to each producer's span the context names; a first delivery names none. */
    private Span.Builder linkedToProducers(C context, Span.Builder builder) {
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
