package io.localqueue.spring.observation;

import io.localqueue.bus.Dispatch;
import io.localqueue.bus.DispatchInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Observes each dispatch of the event bus ({@link BusDispatchObservation#DISPATCH}) and stores what a tracing bridge
 * propagated into the observation's carrier (the caller's {@code traceparent}, {@code baggage} and the like) as
 * headers of every delivery it stores, over headers of the same name it would carry anyway; a delivery that an
 * event already stored stands for keeps its own. The events a handler returns are not observed: they keep the headers
 * of the delivery that emitted them, so a chain of handlers stays in the trace of the dispatch that began it. Without
 * a tracing bridge the deliveries get no headers.
 *
 * @since 0.1.0
 */
public class ObservingDispatchInterceptor implements DispatchInterceptor {

    private final ObservationRegistry registry;
    private final @Nullable BusDispatchObservationConvention convention;

    /**
     * Creates the interceptor.
     *
     * @param registry where the observations go
     * @param convention replaces {@link DefaultBusDispatchObservationConvention}, or null to keep it
     * @since 0.1.0
     */
    public ObservingDispatchInterceptor(ObservationRegistry registry,
                                        @Nullable BusDispatchObservationConvention convention) {
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
        if (dispatch.emittedBy() != null) {
            return write.apply(dispatch.headers());
        }
        EventSenderContext context = new EventSenderContext(dispatch);
        Observation observation = BusDispatchObservation.DISPATCH.observation(convention,
                DefaultBusDispatchObservationConvention.INSTANCE, () -> context, registry);
        return observation.observe(() -> write.apply(context.getHeaders()));
    }
}
