package io.localqueue.spring.listener;

import io.localqueue.spring.QueueListener;
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
 * Registers, for a native image, what a bean's {@link QueueListener} methods need at run time: each method for
 * reflective invocation (the listener calls it through {@code Method.invoke}, and the annotation post-processor finds
 * it by reflection), and its payload type for JSON binding, since the default serializer maps payloads onto it with
 * Jackson. A bean without listener methods contributes nothing.
 *
 * @since 0.1.0
 */
final class QueueListenerBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

    private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
        Map<Method, ListenerSignature> listeners = new LinkedHashMap<>();
        QueueListenerMethods.find(beanClass).forEach((method, annotation) -> {
            ListenerSignature signature = signature(method, beanClass, annotation);
            if (signature != null) {
                listeners.put(method, signature);
            }
        });
        if (listeners.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> {
            ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
            listeners.forEach((method, signature) -> {
                reflection.registerMethod(method, ExecutableMode.INVOKE);
                bindings.registerReflectionHints(reflection, signature.payloadType());
            });
        };
    }

    /** The method's signature, or null for one the start will refuse with its own message. */
    private static @Nullable ListenerSignature signature(Method method, Class<?> beanClass, QueueListener annotation) {
        try {
            return ListenerSignature.of(method, beanClass, annotation.batch(), beanClass.getName() + "."
                    + method.getName());
        } catch (IllegalStateException refused) {
            return null;
        }
    }
}
