package io.localqueue.spring.listener;

import java.lang.reflect.Method;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One {@code @QueueListener} method, its attributes resolved: which queue it consumes, how, and how to call it.
 *
 * @param id the listener's unique id
 * @param queue the queue name
 * @param bean the bean to invoke (the proxy, when the bean is proxied)
 * @param method the method to invoke on {@code bean}
 * @param payloadType the class payloads are decoded to
 * @param takesJob true when the method takes {@code Job<T>} rather than the payload
 * @param concurrency invocations at once, or null for the factory's default
 * @param permanentErrors exceptions that dead-letter a job at once
 * @param autoStartup whether it starts with the context, or null for the factory's default
 * @param containerFactory the factory bean name, or null for the default factory
 *
 * @since 0.1.0
 */
public record QueueListenerEndpoint(String id, String queue, Object bean, Method method, Class<?> payloadType,
                                    boolean takesJob, @Nullable Integer concurrency,
                                    List<Class<? extends Throwable>> permanentErrors, @Nullable Boolean autoStartup,
                                    @Nullable String containerFactory) {

    /** Copies the error list so the endpoint stays immutable. */
    public QueueListenerEndpoint {
        permanentErrors = List.copyOf(permanentErrors);
    }
}
