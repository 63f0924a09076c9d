package io.localqueue.spring.observation;

import io.localqueue.bus.Dispatch;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The context of one observed dispatch of the event bus (a {@code dispatch}, a {@code dispatchAll} or an ingestion
 * batch): a tracing bridge writes the caller's trace context (such as {@code traceparent} and {@code baggage}) into
 * its carrier when the observation starts, and those entries become headers of every delivery the dispatch stores.
 *
 * @since 0.1.0
 */
public class EventSenderContext extends SenderContext<Map<String, String>> {

    /**
     * What {@link #getEventType()} returns for a dispatch of events of several types.
     *
     * @since 0.1.0
     */
    public static final String MIXED_EVENT_TYPES = "mixed";

    private final Dispatch dispatch;

    /**
     * Creates the context of {@code dispatch}, with an empty carrier.
     *
     * @param dispatch what the bus writes, at least one event
     * @throws IllegalArgumentException when the dispatch has no event
     * @since 0.1.0
     */
    public EventSenderContext(Dispatch dispatch) {
        super(HeaderCarriers.SETTER, Kind.PRODUCER);
        if (dispatch.eventTypes().isEmpty()) {
            throw new IllegalArgumentException("a dispatch holds at least one event");
        }
        this.dispatch = dispatch;
        setCarrier(new LinkedHashMap<>());
    }

    /**
     * Returns what the bus writes: its events' type names and the headers the deliveries would get anyway.
     *
     * @return the dispatch
     * @since 0.1.0
     */
    public Dispatch getDispatch() {
        return dispatch;
    }

    /**
     * Returns the bus's name.
     *
     * @return the name
     * @since 0.1.0
     */
    public String getBus() {
        return dispatch.bus();
    }

    /**
     * Returns the type name every event of the dispatch has, or {@link #MIXED_EVENT_TYPES} when they differ.
     *
     * @return the event type
     * @since 0.1.0
     */
    public String getEventType() {
        String first = dispatch.eventTypes().get(0);
        return dispatch.eventTypes().stream().allMatch(first::equals) ? first : MIXED_EVENT_TYPES;
    }

    /**
     * Returns how many events the dispatch writes, duplicates of stored events included.
     *
     * @return the number of events, at least 1
     * @since 0.1.0
     */
    public int getEventCount() {
        return dispatch.eventTypes().size();
    }

    /**
     * Returns the headers to store with the deliveries: those the dispatch would carry anyway, then what the
     * observation's handlers wrote into the carrier over them; empty before it started or without a tracing bridge
     * and other headers.
     *
     * @return the headers, unmodifiable
     * @since 0.1.0
     */
    public Map<String, String> getHeaders() {
        Map<String, String> written = HeaderCarriers.written(getCarrier());
        if (dispatch.headers().isEmpty()) {
            return written;
        }
        Map<String, String> merged = new LinkedHashMap<>(dispatch.headers());
        merged.putAll(written);
        return merged;
    }
}
