package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import java.util.List;
import java.util.function.Function;

/**
 * Runs around each call of a {@link LocalQueueTemplate} that writes jobs, or defers them to the commit of the
 * caller's transaction (one {@code put}, the one transaction of a {@code putMany} or {@code putAll}, an
 * {@code enqueue…}, a {@code joining(dataSource)} put), such as an observation that stores the caller's trace context
 * with the jobs; it must call {@code write} once, on the caller's thread, with the items or with copies of them in
 * the same order (an entry may be null, and the write refuses it), and return what the write returned or let its
 * exception through unchanged.
 *
 * @since 0.1.0
 */
public interface EnqueueInterceptor {

    /**
     * The interceptor that runs every write as it is.
     *
     * @since 0.1.0
     */
    EnqueueInterceptor NONE = new EnqueueInterceptor() {
        @Override
        public <R> R intercept(String queue, List<EnqueueItem<Object>> items,
                               Function<List<EnqueueItem<Object>>, R> write) {
            return write.apply(items);
        }
    };

    /**
     * Runs one write of {@code items} to {@code queue}.
     *
     * @param queue the queue name
     * @param items the jobs of the write, in order
     * @param write commits the items it is given and returns the id or ids
     * @param <R> what the write returns
     * @return what {@code write} returned
     * @since 0.1.0
     */
    <R> R intercept(String queue, List<EnqueueItem<Object>> items, Function<List<EnqueueItem<Object>>, R> write);

    /**
     * Returns an interceptor running {@code interceptors} around each write in order, the first one outermost; none
     * gives {@link #NONE}.
     *
     * @param interceptors the interceptors
     * @return one interceptor doing what they do
     * @since 0.1.0
     */
    static EnqueueInterceptor of(List<? extends EnqueueInterceptor> interceptors) {
        if (interceptors.isEmpty()) {
            return NONE;
        }
        List<EnqueueInterceptor> inOrder = List.copyOf(interceptors);
        if (inOrder.size() == 1) {
            return inOrder.get(0);
        }
        return new EnqueueInterceptor() {
            @Override
            public <R> R intercept(String queue, List<EnqueueItem<Object>> items,
                                   Function<List<EnqueueItem<Object>>, R> write) {
                return around(0, queue, items, write);
            }

            private <R> R around(int index, String queue, List<EnqueueItem<Object>> items,
                                 Function<List<EnqueueItem<Object>>, R> write) {
                if (index == inOrder.size()) {
                    return write.apply(items);
                }
                return inOrder.get(index).intercept(queue, items, next -> around(index + 1, queue, next, write));
            }
        };
    }
}
