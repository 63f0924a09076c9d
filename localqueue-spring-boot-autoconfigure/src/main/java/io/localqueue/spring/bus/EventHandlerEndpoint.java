package io.localqueue.spring.bus;

import io.localqueue.bus.EventContext;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One {@link io.localqueue.spring.EventHandler} method as found: its bean, the event type it takes, where its
 * parameters go, and its resolved attributes; it handles a delivery by invoking the method.
 *
 * @param id "bean.method", for messages
 * @param bean the bean
 * @param method the method, invocable on the bean
 * @param eventType the event class the method takes
 * @param eventIndex the event parameter's position
 * @param contextIndex the context parameter's position, or -1
 * @param subscription the subscription, or null for the one named after the event type
 * @param concurrency handlers at once, or null to keep the subscription's
 * @param handlerTimeout the handler timeout, or null
 * @param permanentErrors exceptions that dead-letter at once
 */
record EventHandlerEndpoint(String id, Object bean, Method method, Class<?> eventType, int eventIndex,
                            int contextIndex, @Nullable String subscription, @Nullable Integer concurrency,
                            @Nullable Duration handlerTimeout, List<Class<? extends Throwable>> permanentErrors)
        implements io.localqueue.bus.EventHandler<Object> {

    /** Tells whether the method's attributes set anything of its subscription. */
    boolean configuresSubscription() {
        return concurrency != null || handlerTimeout != null || !permanentErrors.isEmpty();
    }

    /** Returns the subscription the method is registered on: the one it names, else its event type's. */
    String subscriptionName() {
        return subscription != null ? subscription : io.localqueue.bus.EventBus.typeNameOf(eventType);
    }

    @Override
    public @Nullable Object handle(Object event, EventContext context) throws Exception {
        Object[] arguments = new Object[method.getParameterCount()];
        arguments[eventIndex] = event;
        if (contextIndex >= 0) {
            arguments[contextIndex] = context;
        }
        try {
            return method.invoke(bean, arguments);
        } catch (InvocationTargetException thrown) {
            Throwable cause = thrown.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw thrown;
        }
    }
}
