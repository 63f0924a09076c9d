package io.localqueue.spring.listener;

import io.localqueue.Job;
import io.localqueue.spring.QueueListener;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link QueueListener} methods on beans as they are created, resolves their placeholders and checks their
 * signatures; it only collects endpoints. {@link QueueListenerEndpointRegistry} takes those found so far when the
 * context starts, and every one found later (a lazy or scoped bean created afterwards) as it is found.
 *
 * @since 0.1.0
 */
public class QueueListenerAnnotationBeanPostProcessor implements BeanPostProcessor, BeanFactoryAware {

    private final List<QueueListenerEndpoint> endpoints = new ArrayList<>();
    private @Nullable Consumer<QueueListenerEndpoint> receiver;
    private @Nullable ConfigurableBeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableBeanFactory configurable) {
            this.beanFactory = configurable;
        }
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        Map<Method, QueueListener> annotated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<QueueListener>) method ->
                        AnnotatedElementUtils.findMergedAnnotation(method, QueueListener.class));
        annotated.forEach((method, annotation) -> register(bean, beanName, method, annotation));
        return bean;
    }

    /**
     * Returns the endpoints collected so far.
     *
     * @return a snapshot in discovery order
     */
    public synchronized List<QueueListenerEndpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    /**
     * Hands every endpoint found so far to {@code receiver}, and each one found afterwards as it is found.
     *
     * @param receiver takes endpoints; called on the thread that found one, outside this collector's lock
     */
    public void handOver(Consumer<QueueListenerEndpoint> receiver) {
        List<QueueListenerEndpoint> found;
        synchronized (this) {
            this.receiver = receiver;
            found = List.copyOf(endpoints);
        }
        found.forEach(receiver);
    }

    private void register(Object bean, String beanName, Method method, QueueListener annotation) {
        String where = beanName + "." + method.getName();
        if (method.getParameterCount() != 1) {
            throw new IllegalStateException("@QueueListener method " + where
                    + " must take exactly one parameter: the payload or Job<T>");
        }
        String queue = resolve(annotation.queue());
        if (!StringUtils.hasText(queue)) {
            throw new IllegalStateException("@QueueListener method " + where + " names no queue");
        }
        boolean takesJob = Job.class.equals(method.getParameterTypes()[0]);
        Class<?> payloadType = takesJob
                ? ResolvableType.forMethodParameter(method, 0).getGeneric(0).resolve(Object.class)
                : ResolvableType.forMethodParameter(method, 0).resolve(Object.class);
        String id = StringUtils.hasText(annotation.id()) ? resolve(annotation.id()) : where;
        QueueListenerEndpoint endpoint = new QueueListenerEndpoint(id, queue, bean,
                AopUtils.selectInvocableMethod(method, bean.getClass()), payloadType, takesJob,
                concurrency(annotation.concurrency(), where), Arrays.asList(annotation.permanentErrors()),
                bool(annotation.autoStartup()), StringUtils.hasText(annotation.containerFactory())
                        ? resolve(annotation.containerFactory()) : null);
        Consumer<QueueListenerEndpoint> late;
        synchronized (this) {
            endpoints.add(endpoint);
            late = receiver;
        }
        if (late != null) {
            late.accept(endpoint);
        }
    }

    private @Nullable Integer concurrency(String value, String where) {
        if (!StringUtils.hasText(value)) {
            return null;
        }
        String resolved = resolve(value);
        try {
            int concurrency = Integer.parseInt(resolved.trim());
            if (concurrency < 1) {
                throw new NumberFormatException("not positive");
            }
            return concurrency;
        } catch (NumberFormatException invalid) {
            throw new IllegalStateException("@QueueListener method " + where + " has concurrency '" + resolved
                    + "'; it must be a positive whole number", invalid);
        }
    }

    private @Nullable Boolean bool(String value) {
        return StringUtils.hasText(value) ? Boolean.valueOf(resolve(value).trim()) : null;
    }

    private String resolve(String value) {
        ConfigurableBeanFactory factory = beanFactory;
        if (factory == null) {
            return value;
        }
        String resolved = factory.resolveEmbeddedValue(value);
        BeanExpressionResolver expressions = factory.getBeanExpressionResolver();
        if (resolved != null && expressions != null) {
            Object evaluated = expressions.evaluate(resolved, new BeanExpressionContext(factory, null));
            return evaluated == null ? "" : evaluated.toString();
        }
        return resolved == null ? "" : resolved;
    }
}
