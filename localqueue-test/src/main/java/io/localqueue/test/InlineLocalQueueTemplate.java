package io.localqueue.test;

import io.localqueue.EnqueueItem;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The template of inline mode: each put commits as usual, then runs the queue's listeners on the calling thread until
 * no job of that queue is due, before it returns.
 */
final class InlineLocalQueueTemplate extends LocalQueueTemplate {

    private final QueueListeners listeners;

    InlineLocalQueueTemplate(LocalQueueRegistry queues, QueueListeners listeners) {
        super(queues);
        this.listeners = listeners;
    }

    @Override
    public long put(String queue, Object payload, @Nullable String jobId, Duration timeout) {
        long id = super.put(queue, payload, jobId, timeout);
        listeners.runDue(queue);
        return id;
    }

    @Override
    public List<Long> putMany(String queue, List<? extends EnqueueItem<?>> items) {
        List<Long> ids = super.putMany(queue, items);
        listeners.runDue(queue);
        return ids;
    }

    @Override
    public List<Long> putAll(String queue, Collection<?> payloads) {
        List<Long> ids = super.putAll(queue, payloads);
        listeners.runDue(queue);
        return ids;
    }
}
