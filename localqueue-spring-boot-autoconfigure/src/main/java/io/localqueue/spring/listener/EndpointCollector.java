package io.localqueue.spring.listener;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What an annotation post-processor found so far, and whoever takes it from the start on: endpoints found before
 * {@link #handOver} are handed over then, those found afterwards (beans created later) as they are found.
 *
 * @param <E> the endpoint type
 * @since 0.1.0
 */
public final class EndpointCollector<E> {

    private final List<E> endpoints = new ArrayList<>();
    private @Nullable Consumer<E> receiver;

    /**
     * Adds an endpoint, handing it to the receiver at once when there is one; called outside this collector's lock.
     *
     * @param endpoint the endpoint found
     */
    public void add(E endpoint) {
        Consumer<E> late;
        synchronized (this) {
            endpoints.add(endpoint);
            late = receiver;
        }
        if (late != null) {
            late.accept(endpoint);
        }
    }

    /**
     * Returns the endpoints found so far.
     *
     * @return a snapshot in discovery order
     */
    public synchronized List<E> endpoints() {
        return List.copyOf(endpoints);
    }

    /**
     * Hands every endpoint found so far to {@code receiver}, and each one found afterwards as it is found.
     *
     * @param receiver takes endpoints; called on the thread that found one, outside this collector's lock
     */
    public void handOver(Consumer<E> receiver) {
        List<E> found;
        synchronized (this) {
            this.receiver = receiver;
            found = List.copyOf(endpoints);
        }
        found.forEach(receiver);
    }
}
