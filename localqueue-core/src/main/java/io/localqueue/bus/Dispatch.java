package io.localqueue.bus;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One write of a bus that a {@link DispatchInterceptor} runs around: the events' type names, and the headers their
 * new deliveries get unless the interceptor passes others, which for the events a handler returns are the headers of
 * the delivery that emitted them (so that they carry its trace context on) and for every other write none.
 *
 * @param bus the bus's name
 * @param eventTypes each event's stored type name, in the order of the events (an ingestion batch: one per item)
 * @param headers the headers the deliveries are stored with when the interceptor passes these on; a null map counts
 *                as none
 * @param emittedBy the delivery whose handler returned the events, or null for a dispatch or an ingestion batch
 * @since 0.1.0
 */
public record Dispatch(String bus, List<String> eventTypes, Map<String, String> headers,
                       @Nullable EventContext emittedBy) {

    /**
     * Copies the type names and the headers, so that later changes to the caller's collections do not reach it.
     *
     * @since 0.1.0
     */
    public Dispatch {
        eventTypes = List.copyOf(eventTypes);
        headers = copyOf(headers);
    }

    /**
     * Returns this write with {@code newHeaders} in place of its headers, as an interceptor inside another sees it;
     * null counts as none.
     *
     * @param newHeaders the headers
     * @return the write
     * @since 0.1.0
     */
    public Dispatch withHeaders(@Nullable Map<String, String> newHeaders) {
        return new Dispatch(bus, eventTypes, newHeaders == null ? Map.of() : newHeaders, emittedBy);
    }

    /** Returns an unmodifiable copy of headers in their order; null counts as none. */
    static Map<String, String> copyOf(@Nullable Map<String, String> headers) {
        return headers == null || headers.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }
}
