package io.localqueue.spring.bus;

import io.localqueue.bus.EventContext;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.listener.AnnotatedMethodCollector;
import io.localqueue.spring.listener.AnnotationValues;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link EventHandler} methods on beans as they are created, checks their signatures and resolves their
 * placeholders; it only collects. {@link EventBusLifecycle} registers those found when the context starts, and is
 * handed any found later.
 *
 * @since 0.1.0
 */
public class EventHandlerAnnotationBeanPostProcessor
        extends AnnotatedMethodCollector<EventHandler, EventHandlerEndpoint> {

    /** Creates the collector of {@link EventHandler} methods. */
    public EventHandlerAnnotationBeanPostProcessor() {
        super(EventHandler.class);
    }

    @Override
    protected EventHandlerEndpoint endpoint(Object bean, String where, Method method, EventHandler annotation) {
        AnnotationValues values = values();
        Class<?>[] parameters = method.getParameterTypes();
        int event = EventHandlerMethods.eventParameter(method);
        if (event < 0) {
            throw new InvalidHandlerMethodException("@EventHandler", where, "must take the event and, optionally, "
                    + "an EventContext; it takes " + Arrays.toString(parameters));
        }
        int context = -1;
        for (int i = 0; i < parameters.length; i++) {
            if (i != event && parameters[i] == EventContext.class) {
                context = i;
            }
        }
        Class<?> eventType = parameters[event];
        if (eventType.isInterface() || Modifier.isAbstract(eventType.getModifiers()) || eventType.isPrimitive()) {
            throw new InvalidHandlerMethodException("@EventHandler", where, "takes " + eventType.getName()
                    + ", which is not a concrete event class", null);
        }
        String subscription = StringUtils.hasText(annotation.subscription())
                ? values.resolve(annotation.subscription()).trim() : null;
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        ReflectionUtils.makeAccessible(invocable);
        return new EventHandlerEndpoint(where, bean, invocable, eventType, event, context, subscription,
                values.positive("concurrency", annotation.concurrency(), where),
                values.duration("handlerTimeout", annotation.handlerTimeout(), where),
                List.of(annotation.permanentErrors()));
    }
}
