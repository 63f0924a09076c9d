package io.localqueue.spring.listener;

import org.jspecify.annotations.Nullable;

/**
 * A method annotated {@code @QueueListener} or {@code @EventHandler} cannot be used as it is declared: a signature
 * it cannot take, an attribute whose value (after its placeholders are resolved) is invalid, or a registration the
 * event bus refuses; names the annotation and the method, and the application's start fails with that report.
 *
 * @since 0.1.0
 */
public class InvalidHandlerMethodException extends IllegalStateException {

    private final String annotation;
    private final String method;

    /**
     * Creates the exception of a method whose declaration alone is wrong.
     *
     * @param annotation the annotation as messages show it, such as {@code @EventHandler}
     * @param method the method, as "bean.method"
     * @param problem what is wrong, a sentence that starts after "{annotation} method {method} "
     */
    public InvalidHandlerMethodException(String annotation, String method, String problem) {
        this(annotation, method, problem, null);
    }

    /**
     * Creates the exception of a value something refused.
     *
     * @param annotation the annotation as messages show it, such as {@code @EventHandler}
     * @param method the method, as "bean.method"
     * @param problem what is wrong, a sentence that starts after "{annotation} method {method} "
     * @param cause what refused the value, or null
     */
    public InvalidHandlerMethodException(String annotation, String method, String problem,
                                         @Nullable Throwable cause) {
        super(annotation + " method " + method + " " + problem, cause);
        this.annotation = annotation;
        this.method = method;
    }

    /**
     * Returns the annotation, such as {@code @EventHandler}.
     *
     * @return the annotation as messages show it
     */
    public String annotation() {
        return annotation;
    }

    /**
     * Returns the method.
     *
     * @return "bean.method"
     */
    public String method() {
        return method;
    }
}
