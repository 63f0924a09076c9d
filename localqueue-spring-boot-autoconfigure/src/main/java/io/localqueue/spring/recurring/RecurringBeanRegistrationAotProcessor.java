package io.localqueue.spring.recurring;

import io.localqueue.Job;
import io.localqueue.spring.Recurring;
import io.localqueue.spring.listener.AnnotatedMethodCollector;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.util.ClassUtils;

/**
 * Registers, for a native image, each {@link Recurring} method of a bean for reflective invocation (its listener
 * calls it through {@code Method.invoke}), with the listener's own method that calls it. A bean without recurring
 * methods contributes nothing.
 *
 * @since 0.1.0
 */
final class RecurringBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
        Set<Method> methods = AnnotatedMethodCollector.find(beanClass, Recurring.class).keySet();
        if (methods.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> {
            ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
            methods.forEach(method -> reflection.registerMethod(method, ExecutableMode.INVOKE));
            reflection.registerType(RecurringDispatcher.class, type -> type.withMethod("run",
                    List.of(TypeReference.of(Job.class)), ExecutableMode.INVOKE));
        };
    }
}
