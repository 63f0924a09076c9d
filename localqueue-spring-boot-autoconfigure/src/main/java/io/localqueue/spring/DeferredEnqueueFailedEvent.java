package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import java.util.List;
import org.springframework.context.ApplicationEvent;

/**
 * Published when jobs a {@code LocalQueueTemplate} deferred to a transaction's commit could not be written after
 * it: the transaction stays committed and the jobs are lost, unless a listener keeps them (it gets each payload
 * and job id) to enqueue again later. It is published on the thread that committed, after the ERROR log line.
 *
 * @since 0.1.0
 */
public class DeferredEnqueueFailedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final transient List<EnqueueItem<Object>> items;
    private final RuntimeException failure;

    /**
     * Creates the event.
     *
     * @param source what published it
     * @param queue the queue the jobs were meant for
     * @param items the jobs as they were enqueued, in input order
     * @param failure why writing them failed
     */
    public DeferredEnqueueFailedEvent(Object source, String queue, List<EnqueueItem<Object>> items,
                                      RuntimeException failure) {
        super(source);
        this.queue = queue;
        this.items = List.copyOf(items);
        this.failure = failure;
    }

    /**
     * Returns the queue the lost jobs were meant for.
     *
     * @return the queue name
     */
    public String getQueue() {
        return queue;
    }

    /**
     * Returns the lost jobs: their payloads, as given to {@code enqueue}, and job ids.
     *
     * @return the jobs in input order
     */
    public List<EnqueueItem<Object>> getItems() {
        return items;
    }

    /**
     * Returns how many jobs were lost.
     *
     * @return the number of items of the failed call
     */
    public int getJobCount() {
        return items.size();
    }

    /**
     * Returns why writing the jobs after the commit failed, such as a {@code QueueFullException}.
     *
     * @return the failure
     */
    public RuntimeException getFailure() {
        return failure;
    }

    @Override
    public String toString() {
        return "DeferredEnqueueFailedEvent[queue=" + queue + ", jobs=" + items.size() + ", failure=" + failure + "]";
    }
}
