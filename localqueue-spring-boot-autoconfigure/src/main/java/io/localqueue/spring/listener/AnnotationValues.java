package io.localqueue.spring.listener;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.StringUtils;

/**
 * Resolves the string attributes of localqueue's method annotations ({@code @QueueListener},
 * {@code @EventHandler}): {@code ${…}} placeholders, then {@code #{…}} expressions, as Spring resolves its own.
 *
 * @since 0.1.0
 */
public final class AnnotationValues {

    private final String annotation;
    private final @Nullable ConfigurableBeanFactory beanFactory;

    /**
     * Creates the resolver of a bean factory.
     *
     * @param annotation the annotation's name as messages show it, such as {@code @QueueListener}
     * @param beanFactory the factory whose placeholders and expressions apply, or null to take values as written
     */
    public AnnotationValues(String annotation, @Nullable ConfigurableBeanFactory beanFactory) {
        this.annotation = annotation;
        this.beanFactory = beanFactory;
    }

    /**
     * Resolves an attribute that must be a positive whole number.
     *
     * @param attribute the attribute's name, for the message
     * @param value the value as written; empty when not set
     * @param where the method, as "bean.method"
     * @return the number, or null when not set
     * @throws InvalidHandlerMethodException naming the method and attribute when the value is not a positive number
     */
    public @Nullable Integer positive(String attribute, String value, String where) {
        if (!StringUtils.hasText(value)) {
            return null;
        }
        String resolved = resolve(value).trim();
        try {
            int number = Integer.parseInt(resolved);
            if (number < 1) {
                throw new NumberFormatException("not positive");
            }
            return number;
        } catch (NumberFormatException invalid) {
            throw new InvalidHandlerMethodException(annotation, where, "has " + attribute + " '" + resolved
                    + "'; it must be a positive whole number", invalid);
        }
    }

    /**
     * Resolves an attribute that must be a duration.
     *
     * @param attribute the attribute's name, for the message
     * @param value the value as written; empty when not set
     * @param where the method, as "bean.method"
     * @return the duration, or null when not set
     * @throws InvalidHandlerMethodException naming the method and attribute when the value is not a duration
     */
    public @Nullable Duration duration(String attribute, String value, String where) {
        if (!StringUtils.hasText(value)) {
            return null;
        }
        String resolved = resolve(value).trim();
        try {
            return DurationFormatterUtils.detectAndParse(resolved);
        } catch (IllegalArgumentException invalid) {
            throw new InvalidHandlerMethodException(annotation, where, "has " + attribute + " '" + resolved
                    + "'; it must be a duration such as 500ms or PT0.5S", invalid);
        }
    }

    /**
     * Resolves one attribute value.
     *
     * @param value the value as written
     * @return the value with placeholders and expressions resolved; "" when an expression gives null
     */
    public String resolve(String value) {
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
