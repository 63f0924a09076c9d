package io.localqueue.spring.bus;

import io.localqueue.bus.EventContext;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.listener.AnnotationValues;
import io.localqueue.spring.listener.EndpointCollector;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link EventHandler} methods on beans as they are created, checks their signatures and resolves their
 * placeholders; it only collects. {@link EventBusLifecycle} registers those found when the context starts, and is
 * handed any found later.
 *
 * @since 0.1.0
 */
public class EventHandlerAnnotationBeanPostProcessor implements BeanPostProcessor, BeanFactoryAware {

    private final EndpointCollector<EventHandlerEndpoint> endpoints = new EndpointCollector<>();
    private AnnotationValues values = new AnnotationValues("@EventHandler", null);

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableBeanFactory configurable) {
            values = new AnnotationValues("@EventHandler", configurable);
        }
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        Map<Method, EventHandler> annotated = EventHandlerMethods.find(targetClass);
        annotated.forEach((method, annotation) -> register(bean, beanName, method, annotation));
        return bean;
    }

    /**
     * Hands every handler found so far to {@code receiver}, and each one found afterwards as it is found.
     *
     * @param receiver takes handlers
     */
    void handOver(Consumer<EventHandlerEndpoint> receiver) {
        endpoints.handOver(receiver);
    }

    private void register(Object bean, String beanName, Method method, EventHandler annotation) {
        String where = beanName + "." + method.getName();
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
        EventHandlerEndpoint endpoint = new EventHandlerEndpoint(where, bean, invocable, eventType, event, context,
                subscription,
                values.positive("concurrency", annotation.concurrency(), where),
                values.duration("handlerTimeout", annotation.handlerTimeout(), where),
                List.of(annotation.permanentErrors()));
        endpoints.add(endpoint);
    }
}
