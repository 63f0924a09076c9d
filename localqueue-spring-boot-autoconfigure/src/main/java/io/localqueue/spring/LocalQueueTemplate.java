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
 * returns. On a queue at its {@code max-pending-jobs}, a call without a timeout waits at most the queue's producer
 * wait ({@code localqueue.producer.max-wait}, 5 seconds by default) for room, then throws
 * {@link QueueFullException}, so that a full queue never holds a web request or the shutdown for long.
 *
 * @since 0.1.0
 */
public class LocalQueueTemplate {

    /** How long a producer waits for room when nothing else is configured: 5 seconds. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(5);

    private final LocalQueueRegistry queues;
    private EnqueueInterceptor interceptor = EnqueueInterceptor.NONE;

    /**
     * Creates a template over the application's queues; each queue's wait for room comes from the registry's
     * {@link QueueSettings}.
     *
     * @param queues the registry
     */
    public LocalQueueTemplate(LocalQueueRegistry queues) {
        this.queues = queues;
    }

    /**
     * Commits one job and returns its id, waiting at most the queue's producer wait for room.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @return the job id
     * @throws QueueFullException when the queue is still full once the wait is over
     */
    public long put(String queue, Object payload) {
        return put(queue, payload, null);
    }

    /**
     * Commits one job, or returns the id of the job already holding {@code jobId} in the queue, in any state; waits
     * at most the queue's producer wait for room.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @param jobId the deduplication key, or null for none
     * @return the id of the new or existing job
     * @throws QueueFullException when the queue is still full once the wait is over
     */
    public long put(String queue, Object payload, @Nullable String jobId) {
        return put(queue, payload, jobId, maxWait(queue));
    }

    /**
     * Commits one job like {@link #put(String, Object, String)}, waiting at most {@code timeout} for room instead of
     * the queue's producer wait.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @param jobId the deduplication key, or null for none
     * @param timeout how long to wait for room; {@code Duration.ZERO} makes one attempt
     * @return the id of the new or existing job
     * @throws QueueFullException when there is still no room once the timeout passes
     */
    public long put(String queue, Object payload, @Nullable String jobId, Duration timeout) {
        return interceptor.intercept(queue, List.of(EnqueueItem.of(payload, jobId)),
                prepared -> queues.queue(queue).putMany(prepared, timeout).get(0));
    }

    /**
     * Commits all items in one transaction or none, returning ids in input order; waits at most the queue's producer
     * wait for room, and fails at once when the batch could never fit.
     *
     * @param queue the queue name
     * @param items the jobs, each with an optional job id and headers
     * @return the ids in input order
     * @throws QueueFullException when the batch still does not fit once the wait is over
     */
    public List<Long> putMany(String queue, List<? extends EnqueueItem<?>> items) {
        List<EnqueueItem<Object>> batch = new ArrayList<>(items.size());
        for (EnqueueItem<?> item : items) {
            batch.add(item == null ? null : new EnqueueItem<>(item.data(), item.jobId(), item.headers()));
        }
        return interceptor.intercept(queue, batch, prepared -> queues.queue(queue).putMany(prepared, maxWait(queue)));
    }

    /**
     * Commits all payloads, without job ids, in one transaction or none, waiting like
     * {@link #putMany(String, List)}.
     *
     * @param queue the queue name
     * @param payloads the payloads
     * @return the ids in input order
     * @throws QueueFullException when the batch still does not fit once the wait is over
     */
    public List<Long> putAll(String queue, Collection<?> payloads) {
        List<EnqueueItem<Object>> batch = new ArrayList<>(payloads.size());
        for (Object payload : payloads) {
            batch.add(EnqueueItem.of(payload));
        }
        return interceptor.intercept(queue, batch, prepared -> queues.queue(queue).putMany(prepared, maxWait(queue)));
    }

    /**
     * Sets what runs around each write, such as an observation that stores the caller's trace context with the
     * jobs; by default nothing does.
     *
     * @param interceptor the interceptor
     * @since 0.1.0
     */
    public void setEnqueueInterceptor(EnqueueInterceptor interceptor) {
        this.interceptor = interceptor;
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

    private Duration maxWait(String queue) {
        return queues.settings().producerMaxWaitFor(queue);
    }
}
