package io.localqueue.spring.observation;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The headers that carry a trace context (rather than baggage) in the propagation formats Spring Boot configures:
 * W3C Trace Context, B3 single and B3 multi. A redelivery hides them, so that its span starts a trace of its own.
 */
final class TraceContextHeaders {

    private static final Set<String> NAMES = Set.of("traceparent", "tracestate", "b3", "x-b3-traceid",
            "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags");

    private TraceContextHeaders() {
    }

    /** Returns {@code headers} without the trace-context ones, names compared regardless of case. */
    static Map<String, String> without(Map<String, String> headers) {
        Map<String, String> rest = new LinkedHashMap<>(headers);
        rest.keySet().removeIf(name -> NAMES.contains(name.toLowerCase(Locale.ROOT)));
        return rest;
    }
}
