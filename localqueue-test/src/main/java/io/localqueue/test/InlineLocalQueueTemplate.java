package io.localqueue.test;

import io.localqueue.EnqueueItem;
import io.localqueue.spring.EnqueueResult;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The template of inline mode: each put or enqueue commits as usual, then runs the queue's listeners on the calling
 * thread until no job of that queue is due, before it returns. Inside a transaction an enqueue's jobs are written only
 * once it commits, so they run at the next {@code drain}, not at the call; a put refuses to run there, as the
 * template it stands for does.
 */
final class InlineLocalQueueTemplate extends LocalQueueTemplate {

    private final LocalQueueRegistry queues;
    private final QueueListeners listeners;
    private volatile @Nullable InlineLocalQueueTemplate immediate;

    InlineLocalQueueTemplate(LocalQueueRegistry queues, QueueListeners listeners) {
        this(queues, listeners, true);
    }

    private InlineLocalQueueTemplate(LocalQueueRegistry queues, QueueListeners listeners, boolean transactionAware) {
        super(queues, transactionAware);
        this.queues = queues;
        this.listeners = listeners;
    }

    @Override
    public LocalQueueTemplate immediate() {
        if (!isTransactionAware()) {
            return this;
        }
        InlineLocalQueueTemplate view = immediate;
        if (view == null) {
            view = new InlineLocalQueueTemplate(queues, listeners, false);
            immediate = view;
        }
        return view;
    }

    @Override
    public EnqueueResult enqueue(String queue, Object payload, @Nullable String jobId) {
        return ranIfWritten(queue, super.enqueue(queue, payload, jobId));
    }

    @Override
    public EnqueueResult enqueueMany(String queue, List<? extends EnqueueItem<?>> items) {
        return ranIfWritten(queue, super.enqueueMany(queue, items));
    }

    @Override
    public EnqueueResult enqueueAll(String queue, Collection<?> payloads) {
        return ranIfWritten(queue, super.enqueueAll(queue, payloads));
    }

    private EnqueueResult ranIfWritten(String queue, EnqueueResult result) {
        if (!result.isDeferred()) {
            listeners.runDue(queue);
        }
        return result;
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
