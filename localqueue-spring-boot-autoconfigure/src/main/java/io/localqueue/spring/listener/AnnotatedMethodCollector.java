package io.localqueue.spring.listener;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.PlaceholderResolutionException;

/**
 * The shape every annotation post-processor of this library has: it finds the annotated methods of each bean as the
 * bean is created (inherited and interface ones included, the annotation merged), turns each into an endpoint, and
 * only collects them, for the lifecycle bean that takes them when the context starts and each one found later.
 *
 * @param <A> the annotation
 * @param <E> the endpoint one method becomes
 * @since 0.1.0
 */
public abstract class AnnotatedMethodCollector<A extends Annotation, E> implements BeanPostProcessor,
        BeanFactoryAware {

    private final Class<A> annotationType;
    private final EndpointCollector<E> endpoints = new EndpointCollector<>();
    private AnnotationValues values;

    /**
     * Creates the collector of one annotation's methods.
     *
     * @param annotationType the annotation
     */
    protected AnnotatedMethodCollector(Class<A> annotationType) {
        this.annotationType = annotationType;
        this.values = new AnnotationValues("@" + annotationType.getSimpleName(), null);
    }

    /**
     * Returns a class's methods that carry the annotation, inherited and interface ones included, with it merged.
     *
     * @param type the class
     * @param annotationType the annotation
     * @param <A> the annotation type
     * @return the methods and their annotations
     */
    public static <A extends Annotation> Map<Method, A> find(Class<?> type, Class<A> annotationType) {
        return MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<A>) method ->
                AnnotatedElementUtils.findMergedAnnotation(method, annotationType));
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableBeanFactory configurable) {
            values = new AnnotationValues("@" + annotationType.getSimpleName(), configurable);
        }
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        find(AopUtils.getTargetClass(bean), annotationType).forEach((method, annotation) -> {
            String where = beanName + "." + method.getName();
            try {
                endpoints.add(endpoint(bean, where, method, annotation));
            } catch (PlaceholderResolutionException unresolved) {
                throw new InvalidHandlerMethodException("@" + annotationType.getSimpleName(), where,
                        "has a placeholder no property answers: " + unresolved.getMessage(), unresolved);
            }
        });
        return bean;
    }

    /**
     * Turns one annotated method into its endpoint, checking it.
     *
     * @param bean the bean (the proxy, when it is proxied)
     * @param where the bean's name and the method's, for messages
     * @param method the method, as declared
     * @param annotation its merged annotation
     * @return the endpoint
     * @throws InvalidHandlerMethodException when the method or an attribute is refused
     */
    protected abstract E endpoint(Object bean, String where, Method method, A annotation);

    /**
     * Returns how the annotation's attributes are resolved, placeholders included.
     *
     * @return the resolver
     */
    protected AnnotationValues values() {
        return values;
    }

    /**
     * Returns the endpoints collected so far.
     *
     * @return a snapshot in discovery order
     */
    public List<E> endpoints() {
        return endpoints.endpoints();
    }

    /**
     * Hands every endpoint found so far to {@code receiver}, and each one found afterwards as it is found.
     *
     * @param receiver takes endpoints; called on the thread that found one, outside the collector's lock
     */
    public void handOver(Consumer<E> receiver) {
        endpoints.handOver(receiver);
    }
}
