package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.QueueFullException;
import io.localqueue.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.util.ClassUtils;

/**
 * Puts jobs on the application's queues, serializing payloads of any type as JSON. A transaction-aware template
 * (the default) follows the Spring-managed transaction a call runs in: {@code enqueue…} writes the jobs once that
 * transaction commits and drops them when it rolls back, returning an {@link EnqueueResult} that gets the ids after
 * the commit, and {@code put…}, which returns ids a deferred job does not have yet, refuses to run there with an
 * {@link IllegalStateException}. Outside a transaction, and on the template {@link #immediate()} returns, every call
 * commits before it returns. On a queue at its {@code max-pending-jobs}, a write waits at most
 * the queue's producer wait ({@code localqueue.producer.max-wait}, 5 seconds by default) for room, then throws
 * {@link QueueFullException}, so that a full queue never holds a web request or the shutdown for long.
 *
 * @since 0.1.0
 */
public class LocalQueueTemplate implements ApplicationEventPublisherAware {

    /** How long a producer waits for room when nothing else is configured: 5 seconds. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(5);

    private final LocalQueueRegistry queues;
    private final boolean transactionAware;
    private final TransactionalWrites transactions;
    private volatile @Nullable ApplicationEventPublisher events;
    private volatile @Nullable LocalQueueTemplate immediate;
    private volatile EnqueueInterceptor interceptor = EnqueueInterceptor.NONE;

    /**
     * Creates a transaction-aware template over the application's queues; each queue's wait for room comes from the
     * registry's {@link QueueSettings}.
     *
     * @param queues the registry
     */
    public LocalQueueTemplate(LocalQueueRegistry queues) {
        this(queues, true);
    }

    /**
     * Creates a template over the application's queues that follows Spring-managed transactions, or writes at once
     * whatever becomes of them.
     *
     * @param queues the registry
     * @param transactionAware false to write at once even inside a transaction
     */
    public LocalQueueTemplate(LocalQueueRegistry queues, boolean transactionAware) {
        this(queues, transactionAware, new SpringTransactionalWrites());
    }

    LocalQueueTemplate(LocalQueueRegistry queues, boolean transactionAware, TransactionalWrites transactions) {
        this.queues = queues;
        this.transactionAware = transactionAware;
        this.transactions = transactions;
    }

    /**
     * Commits one job and returns its id, waiting at most the queue's producer wait for room.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @return the job id
     * @throws QueueFullException when the queue is still full once the wait is over
     * @throws IllegalStateException inside a Spring-managed transaction of a transaction-aware template, where the
     *                               job would have no id before the commit: call {@code enqueue} or
     *                               {@code immediate().put} there
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
     * @throws IllegalStateException inside a Spring-managed transaction of a transaction-aware template
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
     * @throws IllegalStateException inside a Spring-managed transaction of a transaction-aware template
     */
    public long put(String queue, Object payload, @Nullable String jobId, Duration timeout) {
        return put(queue, payload, jobId, EnqueueOptions.defaults(), timeout);
    }

    /**
     * Commits one job like {@link #put(String, Object, String)}, due when {@code options} say: a delayed job is
     * never claimed before its due time.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @param jobId the deduplication key, or null for none
     * @param options when the job is due
     * @return the id of the new or existing job
     * @throws QueueFullException when the queue is still full once the queue's producer wait is over
     * @throws IllegalStateException inside a Spring-managed transaction of a transaction-aware template
     * @since 0.1.0
     */
    public long put(String queue, Object payload, @Nullable String jobId, EnqueueOptions options) {
        return put(queue, payload, jobId, options, maxWait(queue));
    }

    private long put(String queue, Object payload, @Nullable String jobId, EnqueueOptions options,
                     Duration timeout) {
        if (payload == null) {
            throw new IllegalArgumentException("payload must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        refuseInsideTransaction("put", queue);
        return interceptor.intercept(queue,
                queues.withConcurrencyKeys(queue, List.of(EnqueueItem.of(payload, jobId).withOptions(options))),
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
     * @throws IllegalStateException inside a Spring-managed transaction of a transaction-aware template
     */
    public List<Long> putMany(String queue, List<? extends EnqueueItem<?>> items) {
        refuseInsideTransaction("putMany", queue);
        return enqueueBatch(queue, batch(items)).ids();
    }

    /**
     * Commits all payloads, without job ids, in one transaction or none, waiting like
     * {@link #putMany(String, List)}.
     *
     * @param queue the queue name
     * @param payloads the payloads
     * @return the ids in input order
     * @throws QueueFullException when the batch still does not fit once the wait is over
     * @throws IllegalStateException inside a Spring-managed transaction of a transaction-aware template
     */
    public List<Long> putAll(String queue, Collection<?> payloads) {
        refuseInsideTransaction("putAll", queue);
        return enqueueBatch(queue, batch(payloads)).ids();
    }

    /**
     * Enqueues one job: inside a Spring-managed transaction of a transaction-aware template it is written once that
     * transaction commits and dropped when it rolls back, and otherwise at once; the result says which, and holds
     * the id once written.
     *
     * @param queue the queue name
     * @param payload the payload, not null; serialized now, so later changes to it do not reach the queue
     * @return the result, {@link EnqueueResult.Status#AWAITING_COMMIT} while deferred
     * @throws QueueFullException when the queue stays full past its producer wait, or, when deferred, is full now
     */
    public EnqueueResult enqueue(String queue, Object payload) {
        return enqueue(queue, payload, null);
    }

    /**
     * Enqueues one job like {@link #enqueue(String, Object)}; a job id already in the queue, in any state, gives
     * the existing job's id once written.
     *
     * @param queue the queue name
     * @param payload the payload, not null; serialized now, so later changes to it do not reach the queue
     * @param jobId the deduplication key, or null for none
     * @return the result, {@link EnqueueResult.Status#AWAITING_COMMIT} while deferred
     * @throws QueueFullException when the queue stays full past its producer wait, or, when deferred, is full now
     */
    public EnqueueResult enqueue(String queue, Object payload, @Nullable String jobId) {
        return enqueueBatch(queue, List.of(EnqueueItem.of(payload, jobId)));
    }

    /**
     * Enqueues all items, in one transaction or none, like {@link #enqueue(String, Object)}: deferred to the commit
     * inside a Spring-managed transaction of a transaction-aware template, at once otherwise.
     *
     * @param queue the queue name
     * @param items the jobs, each with an optional job id and headers
     * @return the result, with the ids in input order once written
     * @throws QueueFullException when the batch stays without room past the producer wait, or, when deferred, the
     *                            queue is full now or the batch alone exceeds its limit
     */
    public EnqueueResult enqueueMany(String queue, List<? extends EnqueueItem<?>> items) {
        return enqueueBatch(queue, batch(items));
    }

    /**
     * Enqueues all payloads, without job ids, like {@link #enqueueMany(String, List)}.
     *
     * @param queue the queue name
     * @param payloads the payloads
     * @return the result, with the ids in input order once written
     * @throws QueueFullException when the batch stays without room past the producer wait, or, when deferred, the
     *                            queue is full now or the batch alone exceeds its limit
     */
    public EnqueueResult enqueueAll(String queue, Collection<?> payloads) {
        return enqueueBatch(queue, batch(payloads));
    }

    /**
     * Returns a template over the same queues that writes every call at once, inside a transaction or not, and
     * keeps the jobs when that transaction rolls back; this template itself when it is not transaction-aware. The
     * template returned is a plain {@code LocalQueueTemplate}: a subclass whose overrides must apply to immediate
     * writes too overrides this method, building its own kind with {@code transactionAware} false.
     *
     * @return the immediate template
     */
    public LocalQueueTemplate immediate() {
        if (!transactionAware) {
            return this;
        }
        LocalQueueTemplate view = immediate;
        if (view == null) {
            view = new LocalQueueTemplate(queues, false, transactions);
            view.setEnqueueInterceptor(interceptor);
            immediate = view;
        }
        return view;
    }

    /**
     * Returns puts that join the transaction of the application's own {@code DataSource} on the queue's SQLite
     * file, so that jobs commit or roll back with the application's rows in that file.
     *
     * @param dataSource the application's DataSource on this template's {@code localqueue.db}
     * @return the joining puts
     * @throws IllegalStateException when spring-jdbc is not on the class path
     */
    public JoiningQueueTemplate joining(DataSource dataSource) {
        if (!ClassUtils.isPresent(JoiningQueueTemplate.DATA_SOURCE_UTILS, LocalQueueTemplate.class.getClassLoader())) {
            throw new IllegalStateException("joining a DataSource's transaction needs spring-jdbc on the class path");
        }
        return new JoiningQueueTemplate(queues, dataSource, interceptor);
    }

    /**
     * Tells whether this template defers writes made inside a Spring-managed transaction to its commit.
     *
     * @return false when every call writes at once
     */
    public boolean isTransactionAware() {
        return transactionAware;
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

    /**
     * Sets what runs around each call that writes or defers jobs (of this template, its {@link #immediate()} view
     * and its {@link #joining(DataSource)} puts), such as an observation that stores the caller's trace context with
     * the jobs; by default nothing does.
     *
     * @param interceptor the interceptor
     * @since 0.1.0
     */
    public void setEnqueueInterceptor(EnqueueInterceptor interceptor) {
        this.interceptor = interceptor;
        this.immediate = null;
    }

    /**
     * Sets where a {@link DeferredEnqueueFailedEvent} is published when deferred jobs cannot be written after their
     * transaction committed; without one such failures are only logged.
     *
     * @param events the application's event publisher
     */
    @Override
    public void setApplicationEventPublisher(ApplicationEventPublisher events) {
        this.events = events;
    }

    private EnqueueResult enqueueBatch(String queue, List<EnqueueItem<Object>> batch) {
        return interceptor.intercept(queue, queues.withConcurrencyKeys(queue, batch), prepared -> deferring()
                ? DeferredEnqueue.defer(queues, transactions, queue, prepared, this, events)
                : EnqueueResult.written(queue, queues.queue(queue).putMany(prepared, maxWait(queue))));
    }

    /** Whether a write now would be deferred to the commit of the caller's transaction. */
    private boolean deferring() {
        return transactionAware && transactions.deferring();
    }

    /**
     * Refuses a call that returns ids where the jobs would be written only at the commit, so that no caller ever
     * stores an id a job does not have.
     */
    private void refuseInsideTransaction(String method, String queue) {
        if (deferring()) {
            throw new IllegalStateException(method + "(...) on queue '" + queue + "' was called inside a "
                    + "Spring-managed transaction, where the job would have no id before the commit. Call "
                    + "enqueue(...) to write it once the transaction commits (its EnqueueResult gets the id then), "
                    + "or immediate().put(...) to write it at once, kept even if the transaction rolls back.");
        }
    }

    /** Copies items of any payload type into a batch of {@code Object} payloads, keeping ids, headers, options. */
    static List<EnqueueItem<Object>> batch(List<? extends EnqueueItem<?>> items) {
        List<EnqueueItem<Object>> batch = new ArrayList<>(items.size());
        for (EnqueueItem<?> item : items) {
            batch.add(item == null ? null : new EnqueueItem<>(item.data(), item.jobId(), item.headers(), item.options()));
        }
        return batch;
    }

    /** Makes a batch of plain items, one per payload. */
    static List<EnqueueItem<Object>> batch(Collection<?> payloads) {
        List<EnqueueItem<Object>> batch = new ArrayList<>(payloads.size());
        for (Object payload : payloads) {
            batch.add(EnqueueItem.of(payload));
        }
        return batch;
    }

    private Duration maxWait(String queue) {
        return queues.settings().producerMaxWaitFor(queue);
    }
}
