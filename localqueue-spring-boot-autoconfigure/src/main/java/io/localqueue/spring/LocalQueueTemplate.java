package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import io.localqueue.QueueFullException;
import io.localqueue.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Puts jobs on the application's queues, serializing payloads of any type as JSON; each call commits before it
 * returns and, on a queue with {@code max-pending-jobs}, waits for room.
 *
 * @since 0.1.0
 */
public class LocalQueueTemplate {

    private final LocalQueueRegistry queues;

    /**
     * Creates a template over the application's queues.
     *
     * @param queues the registry
     */
    public LocalQueueTemplate(LocalQueueRegistry queues) {
        this.queues = queues;
    }

    /**
     * Commits one job and returns its id.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @return the job id
     */
    public long put(String queue, Object payload) {
        return queues.queue(queue).put(payload);
    }

    /**
     * Commits one job, or returns the id of the job already holding {@code jobId} in the queue, in any state.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @param jobId the deduplication key, or null for none
     * @return the id of the new or existing job
     */
    public long put(String queue, Object payload, @Nullable String jobId) {
        return queues.queue(queue).put(payload, jobId);
    }

    /**
     * Commits one job like {@link #put(String, Object, String)}, waiting at most {@code timeout} for room.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @param jobId the deduplication key, or null for none
     * @param timeout how long to wait for room; {@code Duration.ZERO} makes one attempt
     * @return the id of the new or existing job
     * @throws QueueFullException when there is still no room once the timeout passes
     */
    public long put(String queue, Object payload, @Nullable String jobId, Duration timeout) {
        return queues.queue(queue).put(payload, jobId, timeout);
    }

    /**
     * Commits all items in one transaction or none, returning ids in input order.
     *
     * @param queue the queue name
     * @param items the jobs, each with an optional job id
     * @return the ids in input order
     */
    public List<Long> putMany(String queue, List<? extends EnqueueItem<?>> items) {
        List<EnqueueItem<Object>> batch = new ArrayList<>(items.size());
        for (EnqueueItem<?> item : items) {
            batch.add(item == null ? null : EnqueueItem.of(item.data(), item.jobId()));
        }
        return queues.queue(queue).putMany(batch);
    }

    /**
     * Commits all payloads, without job ids, in one transaction or none.
     *
     * @param queue the queue name
     * @param payloads the payloads
     * @return the ids in input order
     */
    public List<Long> putAll(String queue, Collection<?> payloads) {
        List<EnqueueItem<Object>> batch = new ArrayList<>(payloads.size());
        for (Object payload : payloads) {
            batch.add(EnqueueItem.of(payload));
        }
        return queues.queue(queue).putMany(batch);
    }

    /**
     * Counts a queue's jobs by state.
     *
     * @param queue the queue name
     * @return the counts
     */
    public QueueStats stats(String queue) {
        return queues.queue(queue).stats();
    }
}
