package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import java.sql.Connection;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Puts jobs through the connection of the running Spring-managed transaction of the application's own
 * {@code DataSource} on the queue's SQLite file, so that each job commits with the application's rows of that
 * transaction, or vanishes with them on a rollback: no outbox, and no window between two commits. Obtained from
 * {@link LocalQueueTemplate#joining(DataSource)}. Each call needs that transaction: without one, or when it holds
 * no connection of this DataSource, it throws {@link IllegalStateException}. Deduplication by job id and the
 * pending-job limit hold as for any put, in one attempt: a queue without room throws {@link QueueFullException} at
 * once, inside the transaction. The ids returned are the jobs' once the transaction commits, and mean nothing if
 * it rolls back. Inside that transaction write to the file only through these puts: another write of the queue's
 * own (an immediate put, an acknowledgement) waits for the transaction's write lock until its budget runs out.
 *
 * @since 0.1.0
 */
public final class JoiningQueueTemplate {

    /** The spring-jdbc class whose presence this needs. */
    static final String DATA_SOURCE_UTILS = "org.springframework.jdbc.datasource.DataSourceUtils";

    private final LocalQueueRegistry queues;
    private final DataSource dataSource;
    private final EnqueueInterceptor interceptor;

    JoiningQueueTemplate(LocalQueueRegistry queues, DataSource dataSource, EnqueueInterceptor interceptor) {
        if (dataSource == null) {
            throw new IllegalArgumentException("dataSource must not be null");
        }
        this.queues = queues;
        this.dataSource = dataSource;
        this.interceptor = interceptor;
    }

    /**
     * Puts one job within the running transaction.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @return the job's id, valid once the transaction commits
     * @throws QueueFullException at once when the queue is at its limit
     * @throws IllegalStateException when no transaction of the DataSource is running
     */
    public long put(String queue, Object payload) {
        return put(queue, payload, null);
    }

    /**
     * Puts one job within the running transaction, or returns the id of the job already holding {@code jobId} in
     * the queue, in any state.
     *
     * @param queue the queue name
     * @param payload the payload, not null
     * @param jobId the deduplication key, or null for none
     * @return the id of the new or existing job, valid once the transaction commits
     * @throws QueueFullException at once when the queue is at its limit
     * @throws IllegalStateException when no transaction of the DataSource is running
     */
    public long put(String queue, Object payload, @Nullable String jobId) {
        return within(queue, List.of(EnqueueItem.of(payload, jobId))).get(0);
    }

    /**
     * Puts all items within the running transaction, all of them or, when it rolls back, none.
     *
     * @param queue the queue name
     * @param items the jobs, each with an optional job id and headers
     * @return the ids in input order, valid once the transaction commits
     * @throws QueueFullException at once when the batch does not fit
     * @throws IllegalStateException when no transaction of the DataSource is running
     */
    public List<Long> putMany(String queue, List<? extends EnqueueItem<?>> items) {
        return within(queue, LocalQueueTemplate.batch(items));
    }

    /**
     * Puts all payloads, without job ids, within the running transaction.
     *
     * @param queue the queue name
     * @param payloads the payloads
     * @return the ids in input order, valid once the transaction commits
     * @throws QueueFullException at once when the batch does not fit
     * @throws IllegalStateException when no transaction of the DataSource is running
     */
    public List<Long> putAll(String queue, Collection<?> payloads) {
        return within(queue, LocalQueueTemplate.batch(payloads));
    }

    private List<Long> within(String queue, List<EnqueueItem<Object>> items) {
        return interceptor.intercept(queue, queues.withConcurrencyKeys(queue, items),
                prepared -> writeWithin(queue, prepared));
    }

    private List<Long> writeWithin(String queue, List<EnqueueItem<Object>> items) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new IllegalStateException("joining(dataSource) puts on queue '" + queue + "' join the running "
                    + "transaction of that DataSource, and none is running: call them from a @Transactional method "
                    + "(or a TransactionTemplate) whose transaction manager manages that DataSource");
        }
        if (TransactionSynchronizationManager.getResource(dataSource) == null) {
            throw new IllegalStateException("joining(dataSource) puts on queue '" + queue + "' need the running "
                    + "transaction to hold a connection of that DataSource, and it holds none: its transaction "
                    + "manager manages another one");
        }
        SimpleQueue<Object> target = queues.queue(queue);
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            List<Long> ids = target.putManyWithin(connection, items);
            TransactionSynchronizationManager.registerSynchronization(new WakeConsumersAfterCommit(target));
            return ids;
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /** Wakes the queue's consumers in this JVM once the transaction that put jobs on it committed. */
    private record WakeConsumersAfterCommit(SimpleQueue<Object> queue) implements TransactionSynchronization {
        @Override
        public void afterCommit() {
            try {
                queue.wakeConsumers();
            } catch (QueueClosedException closing) {
                // the application is closing: consumers find the jobs when it starts again
            }
        }
    }
}
