package io.localqueue.bus;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs around each write of a bus that stores deliveries: a {@code dispatch} or {@code dispatchAll} of at least one
 * event, each batch of an ingestion or execution (its waits for room included), and the events a handler returns
 * (with its acknowledgement), such as an observation that stores the caller's trace context with the deliveries; it
 * must call {@code write} once, on the calling thread, with the headers every new delivery of the write is to be
 * stored with ({@link Dispatch#headers()} to keep those it would get anyway, null or empty for none), and return
 * what the write returned or let its exception through unchanged. For a handler's events ({@link Dispatch#emittedBy()}
 * not null), {@code write} hands them over to commit with the delivery's acknowledgement and returns null before that
 * commit; a failure to store them settles the delivery (a retry, or a dead letter for a deduplication conflict)
 * instead of going through the interceptor.
 *
 * <pre>{@code
 * import io.localqueue.bus.Dispatch;
 * import io.localqueue.bus.DispatchInterceptor;
 * import io.localqueue.bus.EventBus;
 * import java.nio.file.Path;
 * import java.util.LinkedHashMap;
 * import java.util.Map;
 * import java.util.function.Function;
 *
 * EventBus bus = EventBus.builder(Path.of("./data")).dispatchInterceptor(new DispatchInterceptor() {
 *     @Override
 *     public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
 *         Map<String, String> headers = new LinkedHashMap<>(dispatch.headers());
 *         headers.put("tenant", Tenants.current());
 *         return write.apply(headers);
 *     }
 * }).build();
 * }</pre>
 *
 * @since 0.1.0
 */
public interface DispatchInterceptor {

    /**
     * The interceptor that runs every write as it is: a handler's events keep the headers of the delivery that
     * emitted them, and every other delivery is stored without headers.
     *
     * @since 0.1.0
     */
    DispatchInterceptor NONE = new DispatchInterceptor() {
        @Override
        public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
            return write.apply(dispatch.headers());
        }
    };

    /**
     * Runs one write of {@code dispatch}'s events; headers that are not stored as given (an empty or null name, a
     * null value, a lone UTF-16 surrogate, more than {@link io.localqueue.EnqueueItem#MAX_HEADERS_LENGTH} characters
     * in all) make {@code write} throw {@link IllegalArgumentException} before anything is stored.
     *
     * @param dispatch what is written
     * @param write stores the events' deliveries with the headers it is given and returns what the write returns
     * @param <R> what the write returns
     * @return what {@code write} returned
     * @since 0.1.0
     */
    <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write);

    /**
     * Returns an interceptor running {@code interceptors} around each write in order, the first one outermost and
     * each seeing in {@link Dispatch#headers()} what the one outside it passed on; none gives {@link #NONE}.
     *
     * @param interceptors the interceptors
     * @return one interceptor doing what they do
     * @since 0.1.0
     */
    static DispatchInterceptor of(List<? extends DispatchInterceptor> interceptors) {
        if (interceptors.isEmpty()) {
            return NONE;
        }
        List<DispatchInterceptor> inOrder = List.copyOf(interceptors);
        if (inOrder.size() == 1) {
            return inOrder.get(0);
        }
        return new DispatchInterceptor() {
            @Override
            public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
                return around(0, dispatch, write);
            }

            private <R> R around(int index, Dispatch dispatch, Function<Map<String, String>, R> write) {
                if (index == inOrder.size()) {
                    return write.apply(dispatch.headers());
                }
                return inOrder.get(index).intercept(dispatch,
                        next -> around(index + 1, dispatch.withHeaders(next), write));
            }
        };
    }
}
