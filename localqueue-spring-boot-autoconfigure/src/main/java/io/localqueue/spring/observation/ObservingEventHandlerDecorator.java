package io.localqueue.spring.observation;

import io.localqueue.bus.EventHandler;
import io.localqueue.spring.bus.EventHandlerDecorator;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes every delivery an {@code @EventHandler} method handles ({@link BusHandlerObservation#HANDLER}), the
 * observation in scope while the method runs; with a tracing bridge the handler's span continues the trace stored
 * with the delivery, and its log lines carry that trace's id. With a no-op registry the handlers run unobserved, at
 * no cost beyond a check per delivery.
 *
 * @since 0.1.0
 */
public class ObservingEventHandlerDecorator implements EventHandlerDecorator {

    private final ObservationRegistry registry;
    private final @Nullable BusHandlerObservationConvention convention;

    /**
     * Creates the decorator.
     *
     * @param registry where the observations go
     * @param convention replaces {@link DefaultBusHandlerObservationConvention}, or null to keep it
     * @since 0.1.0
     */
    public ObservingEventHandlerDecorator(ObservationRegistry registry,
                                          @Nullable BusHandlerObservationConvention convention) {
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public <E> EventHandler<E> decorate(String bus, String handlerId, EventHandler<E> handler) {
        return (event, delivery) -> BusHandlerObservation.HANDLER.observation(convention,
                DefaultBusHandlerObservationConvention.INSTANCE,
                () -> new EventReceiverContext(bus, handlerId, delivery), registry)
                .observeChecked(() -> handler.handle(event, delivery));
    }
}
