package io.localqueue.spring.observation;

import io.micrometer.observation.transport.Propagator;
import java.util.Collections;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How every localqueue observation carries a trace context: in the headers stored with a job or a bus delivery. A
 * producer's carrier collects what the tracing bridge propagates; a consumer's carrier holds the stored headers on a
 * first delivery, and on a redelivery the same without the trace context, so that its span starts a trace of its own.
 */
final class HeaderCarriers {

    /** Writes a propagated entry into a producer's carrier. */
    static final Propagator.Setter<Map<String, String>> SETTER = (carrier, name, value) -> {
        if (carrier != null) {
            carrier.put(name, value);
        }
    };

    /** Reads an entry of a consumer's carrier. */
    static final Propagator.Getter<Map<String, String>> GETTER = (carrier, name) -> carrier.get(name);

    private HeaderCarriers() {
    }

    /** Returns what a producer's handlers wrote into its carrier so far, unmodifiable; empty without a carrier. */
    static Map<String, String> written(@Nullable Map<String, String> carrier) {
        return carrier == null ? Map.of() : Collections.unmodifiableMap(carrier);
    }

    /** Returns a consumer's carrier: the stored headers, without their trace context on a redelivery. */
    static Map<String, String> received(Map<String, String> headers, boolean redelivery) {
        return redelivery ? TraceContextHeaders.without(headers) : headers;
    }
}
