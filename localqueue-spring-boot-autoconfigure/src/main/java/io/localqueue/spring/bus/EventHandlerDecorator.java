package io.localqueue.spring.bus;

import io.localqueue.bus.EventHandler;
import java.util.List;

/**
 * Wraps the handler of each {@link io.localqueue.spring.EventHandler @EventHandler} method before it is registered
 * on the bus, such as in an observation of every delivery; the wrapper must call the handler once per delivery,
 * return what it returned and let what it throws through unchanged, so that the bus's outcome rules (acknowledge,
 * emit, retry, reject) still see them.
 *
 * @since 0.1.0
 */
public interface EventHandlerDecorator {

    /**
     * The decorator that leaves every handler as it is.
     *
     * @since 0.1.0
     */
    EventHandlerDecorator NONE = new EventHandlerDecorator() {
        @Override
        public <E> EventHandler<E> decorate(String bus, String handlerId, EventHandler<E> handler) {
            return handler;
        }
    };

    /**
     * Returns the handler that runs in place of {@code handler}, the method {@code handlerId} registered on the bus
     * named {@code bus}.
     *
     * @param bus the bus's name
     * @param handlerId the method's id, {@code bean.method}
     * @param handler the method's handler
     * @param <E> the event type
     * @return the wrapper, or {@code handler} itself
     * @since 0.1.0
     */
    <E> EventHandler<E> decorate(String bus, String handlerId, EventHandler<E> handler);

    /**
     * Returns a decorator applying {@code decorators} in order, the first one outermost; none gives {@link #NONE}.
     *
     * @param decorators the decorators
     * @return one decorator doing what they do
     * @since 0.1.0
     */
    static EventHandlerDecorator of(List<? extends EventHandlerDecorator> decorators) {
        if (decorators.isEmpty()) {
            return NONE;
        }
        List<EventHandlerDecorator> inOrder = List.copyOf(decorators);
        if (inOrder.size() == 1) {
            return inOrder.get(0);
        }
        return new EventHandlerDecorator() {
            @Override
            public <E> EventHandler<E> decorate(String bus, String handlerId, EventHandler<E> handler) {
                EventHandler<E> decorated = handler;
                for (int i = inOrder.size() - 1; i >= 0; i--) {
                    decorated = inOrder.get(i).decorate(bus, handlerId, decorated);
                }
                return decorated;
            }
        };
    }
}
