package io.localqueue.spring.bus;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.util.ClassUtils;

/**
 * Registers, for a native image, what a bean's {@link io.localqueue.spring.EventHandler} methods need at run time:
 * each method for reflective invocation, and its event type for JSON binding, since envelopes' payloads are mapped
 * onto it with Jackson. A bean without handler methods contributes nothing.
 *
 * @since 0.1.0
 */
final class EventHandlerBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

    private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
        Map<Method, Class<?>> handlers = new LinkedHashMap<>();
        EventHandlerMethods.find(beanClass).forEach((method, annotation) -> {
            int event = EventHandlerMethods.eventParameter(method);
            if (event >= 0) {
                handlers.put(method, method.getParameterTypes()[event]);
            }
        });
        if (handlers.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> {
            ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
            handlers.forEach((method, eventType) -> {
                reflection.registerMethod(method, ExecutableMode.INVOKE);
                bindings.registerReflectionHints(reflection, eventType);
            });
        };
    }
}
