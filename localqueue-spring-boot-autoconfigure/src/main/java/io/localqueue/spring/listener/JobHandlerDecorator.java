package io.localqueue.spring.listener;

import io.localqueue.BatchJobHandler;
import io.localqueue.JobHandler;
import java.util.List;

/**
 * Wraps the handler of each listener a {@link DefaultQueueListenerContainerFactory} builds, such as in an observation
 * of every delivery; the wrapper must call the handler once per job and let what it throws through unchanged, so
 * that the listener's outcome rules (acknowledge, retry, dead-letter) still see it.
 *
 * @since 0.1.0
 */
public interface JobHandlerDecorator {

    /**
     * The decorator that leaves every handler as it is.
     *
     * @since 0.1.0
     */
    JobHandlerDecorator NONE = new JobHandlerDecorator() {
        @Override
        public <T> JobHandler<T> decorate(QueueListenerEndpoint endpoint, JobHandler<T> handler) {
            return handler;
        }
    };

    /**
     * Returns the handler that runs in place of {@code handler} for the listener {@code endpoint} describes.
     *
     * @param endpoint the listener
     * @param handler the listener method's handler
     * @param <T> the payload type
     * @return the wrapper, or {@code handler} itself
     * @since 0.1.0
     */
    <T> JobHandler<T> decorate(QueueListenerEndpoint endpoint, JobHandler<T> handler);

    /**
     * Returns the handler that runs in place of a batch listener's {@code handler}; by default the handler itself.
     *
     * @param endpoint the batch listener
     * @param handler the listener method's batch handler
     * @param <T> the payload type
     * @return the wrapper, or {@code handler} itself
     * @since 0.1.0
     */
    default <T> BatchJobHandler<T> decorateBatch(QueueListenerEndpoint endpoint, BatchJobHandler<T> handler) {
        return handler;
    }

    /**
     * Returns a decorator applying {@code decorators} in order, the first one outermost; none gives {@link #NONE}.
     *
     * @param decorators the decorators
     * @return one decorator doing what they do
     * @since 0.1.0
     */
    static JobHandlerDecorator of(List<? extends JobHandlerDecorator> decorators) {
        if (decorators.isEmpty()) {
            return NONE;
        }
        List<JobHandlerDecorator> inOrder = List.copyOf(decorators);
        if (inOrder.size() == 1) {
            return inOrder.get(0);
        }
        return new JobHandlerDecorator() {
            @Override
            public <T> JobHandler<T> decorate(QueueListenerEndpoint endpoint, JobHandler<T> handler) {
                JobHandler<T> decorated = handler;
                for (int i = inOrder.size() - 1; i >= 0; i--) {
                    decorated = inOrder.get(i).decorate(endpoint, decorated);
                }
                return decorated;
            }

            @Override
            public <T> BatchJobHandler<T> decorateBatch(QueueListenerEndpoint endpoint, BatchJobHandler<T> handler) {
                BatchJobHandler<T> decorated = handler;
                for (int i = inOrder.size() - 1; i >= 0; i--) {
                    decorated = inOrder.get(i).decorateBatch(endpoint, decorated);
                }
                return decorated;
            }
        };
    }
}
