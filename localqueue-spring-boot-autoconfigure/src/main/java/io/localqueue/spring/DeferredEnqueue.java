package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import io.localqueue.QueueFullException;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * One enqueue deferred to the commit of its transaction. The payloads are serialized when the call is made, so a
 * payload that cannot be stored fails inside the transaction and later changes to the objects do not reach the
 * queue, and a queue already full refuses the call then; after the commit the bytes are written with the queue's
 * producer wait. A write that fails then loses the jobs: it is logged at ERROR and published as a
 * {@link DeferredEnqueueFailedEvent}.
 */
final class DeferredEnqueue implements DeferredWrite {

    private static final Logger log = LoggerFactory.getLogger(DeferredEnqueue.class);

    private final LocalQueueRegistry queues;
    private final String queue;
    private final List<EnqueueItem<Object>> items;
    private final List<EnqueueItem<byte[]>> serialized;
    private final EnqueueResult result;
    private final Object source;
    private final @Nullable ApplicationEventPublisher events;

    private DeferredEnqueue(LocalQueueRegistry queues, String queue, List<EnqueueItem<Object>> items,
                            List<EnqueueItem<byte[]>> serialized, Object source,
                            @Nullable ApplicationEventPublisher events) {
        this.queues = queues;
        this.queue = queue;
        this.items = items;
        this.serialized = serialized;
        this.result = EnqueueResult.awaitingCommit(queue, items.size());
        this.source = source;
        this.events = events;
    }

    /**
     * Checks and serializes the jobs now and hands their write to the current transaction.
     *
     * @param source the producer, the source of a failure's event
     * @param events where a failure's event is published, or null for none
     * @return the result, awaiting the commit
     * @throws IllegalArgumentException when an item or payload is null or cannot be serialized
     * @throws QueueFullException when the queue is full now, or the batch alone exceeds its limit
     */
    static EnqueueResult defer(LocalQueueRegistry queues, TransactionalWrites transactions, String queue,
                               List<EnqueueItem<Object>> items, Object source,
                               @Nullable ApplicationEventPublisher events) {
        SimpleQueue<Object> target = queues.queue(queue);
        List<EnqueueItem<byte[]>> serialized = serialize(target.serializer(), items);
        requireRoom(target, items);
        DeferredEnqueue deferred = new DeferredEnqueue(queues, queue, List.copyOf(items), serialized, source,
                events);
        transactions.afterCommit(deferred);
        return deferred.result;
    }

    @Override
    public void write() {
        SimpleQueue<byte[]> target = queues.serializedQueue(queue);
        result.markWritten(target.putMany(serialized, queues.settings().producerMaxWaitFor(queue)));
    }

    @Override
    public void rolledBack() {
        result.markRolledBack();
    }

    @Override
    public void failed(RuntimeException failure) {
        result.markFailed(failure);
        log.error("Lost {} job(s) of queue '{}' deferred to their transaction's commit: writing them after it "
                + "failed ({}); the transaction stays as it ended and nothing writes them again. Job ids: {}",
                items.size(), queue, failure, jobIds(), failure);
        if (events != null) {
            events.publishEvent(new DeferredEnqueueFailedEvent(source, queue, items, failure));
        }
    }

    private static List<EnqueueItem<byte[]>> serialize(Serializer<Object> serializer,
                                                       List<EnqueueItem<Object>> items) {
        List<EnqueueItem<byte[]>> serialized = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            EnqueueItem<Object> item = items.get(i);
            if (item == null || item.data() == null) {
                throw new IllegalArgumentException("items[" + i + "]" + (item == null ? "" : ".data")
                        + " must not be null");
            }
            byte[] bytes;
            try {
                bytes = serializer.serialize(item.data());
            } catch (RuntimeException refused) {
                throw new IllegalArgumentException("items[" + i + "].data cannot be serialized by "
                        + serializer.identity() + ": " + refused.getMessage(), refused);
            }
            requireStorable(item.jobId(), i);
            serialized.add(new EnqueueItem<>(bytes, item.jobId(), item.headers(), item.options()));
        }
        return serialized;
    }

    /** Refuses now a job id the write after the commit would refuse: one that UTF-8 cannot hold. */
    private static void requireStorable(@Nullable String jobId, int index) {
        if (jobId != null && !new String(jobId.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)
                .equals(jobId)) {
            throw new IllegalArgumentException("items[" + index + "].jobId holds a lone UTF-16 surrogate, which "
                    + "cannot be stored as UTF-8");
        }
    }

    /** Refuses now what the write after the commit would find without room; reserves nothing. */
    private static void requireRoom(SimpleQueue<Object> target, List<EnqueueItem<Object>> items) {
        OptionalLong limit = target.maxPendingJobs();
        if (limit.isEmpty()) {
            return;
        }
        long withoutJobId = items.stream().filter(item -> item.jobId() == null).count();
        if (withoutJobId > limit.getAsLong()) {
            throw new QueueFullException("queue '" + target.name() + "' is full: the batch adds at least "
                    + withoutJobId + " jobs but maxPendingJobs is " + limit.getAsLong());
        }
        if (target.isFull()) {
            throw new QueueFullException("queue '" + target.name() + "' is full: maxPendingJobs is "
                    + limit.getAsLong() + " (checked before deferring the jobs to the transaction's commit)");
        }
    }

    private List<@Nullable String> jobIds() {
        List<@Nullable String> ids = new ArrayList<>(items.size());
        for (EnqueueItem<Object> item : items) {
            ids.add(item.jobId());
        }
        return ids;
    }
}
