package io.localqueue.spring.bus;

import io.localqueue.bus.EventContext;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.listener.AnnotatedMethodCollector;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * How a class's {@link EventHandler} methods are found and which parameter is the event: the one lookup, for the
 * post-processor at run time and the ahead-of-time processor at build time.
 *
 * @since 0.1.0
 */
public final class EventHandlerMethods {

    private EventHandlerMethods() {
    }

    /**
     * Returns the class's handler methods, inherited and interface ones included, with their merged annotation.
     *
     * @param type the bean class
     * @return the methods and their annotations
     */
    public static Map<Method, EventHandler> find(Class<?> type) {
        return AnnotatedMethodCollector.find(type, EventHandler.class);
    }

    /**
     * Returns the position of a handler method's event parameter: its one parameter that is not the context.
     *
     * @param method the method
     * @return the position, or -1 when the method takes no event or more than one
     */
    public static int eventParameter(Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        int event = -1;
        boolean context = false;
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == EventContext.class && !context) {
                context = true;
            } else if (event < 0) {
                event = i;
            } else {
                return -1;
            }
        }
        return parameters.length > 2 ? -1 : event;
    }
}
