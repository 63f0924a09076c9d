package io.localqueue.spring.listener;

import io.localqueue.spring.AckMode;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One {@code @QueueListener} method, its attributes resolved: which queue it consumes, how, and how to call it.
 *
 * @param id the listener's unique id
 * @param queue the queue name
 * @param bean the bean to invoke (the proxy, when the bean is proxied)
 * @param method the method to invoke on {@code bean}
 * @param signature what the method takes: the payload type, jobs or payloads, a batch, an acknowledgement
 * @param ackMode how its jobs are settled, or null for the factory's default
 * @param concurrency invocations at once, or null for the factory's default
 * @param permanentErrors exceptions that dead-letter a job at once
 * @param autoStartup whether it starts with the context, or null for the factory's default
 * @param containerFactory the factory bean name, or null for the default factory
 * @param batchSize the most jobs in a batch, or null for the factory's default; batch listeners only
 * @param batchWait how long a batch waits to fill, or null for the factory's default; batch listeners only
 *
 * @since 0.1.0
 */
public record QueueListenerEndpoint(String id, String queue, Object bean, Method method, ListenerSignature signature,
                                    @Nullable AckMode ackMode, @Nullable Integer concurrency,
                                    List<Class<? extends Throwable>> permanentErrors, @Nullable Boolean autoStartup,
                                    @Nullable String containerFactory, @Nullable Integer batchSize,
                                    @Nullable Duration batchWait) {

    /** Copies the error list so the endpoint stays immutable. */
    public QueueListenerEndpoint {
        permanentErrors = List.copyOf(permanentErrors);
    }
}
