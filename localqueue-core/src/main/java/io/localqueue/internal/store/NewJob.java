package io.localqueue.internal.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A serialized job on its way into a queue.
 *
 * @param payload the stored bytes
 * @param jobId the deduplication key, or null
 * @param headers names to values stored with the job, checked already; empty for none
 * @param dueAt when the job becomes due, in epoch milliseconds on the queue's clock; 0 (or any time not after the
 *              put's) for at once
 * @param priority the claim priority, -1000 (first) to 1000 (last); 0 is the default
 * @param concurrencyKey the key the job shares with related jobs, or null
 */
public record NewJob(byte[] payload, @Nullable String jobId, Map<String, String> headers, long dueAt, int priority,
                     @Nullable String concurrencyKey) {

    /**
     * A job of the default priority and no key.
     *
     * @param payload the stored bytes
     * @param jobId the deduplication key, or null
     * @param headers names to values stored with the job, checked already; empty for none
     * @param dueAt when the job becomes due, in epoch milliseconds; 0 for at once
     */
    public NewJob(byte[] payload, @Nullable String jobId, Map<String, String> headers, long dueAt) {
        this(payload, jobId, headers, dueAt, 0, null);
    }

    /**
     * Returns whether the job is put as a plain job: due at the put, of the default priority, without a key.
     *
     * @param now the put's time, in epoch milliseconds
     * @return true when nothing but its payload and headers sets it apart
     */
    public boolean plainAt(long now) {
        return availableAt(now) == now && priority == 0 && concurrencyKey == null;
    }

    /**
     * A job due at once.
     *
     * @param payload the stored bytes
     * @param jobId the deduplication key, or null
     * @param headers names to values stored with the job, checked already; empty for none
     */
    public NewJob(byte[] payload, @Nullable String jobId, Map<String, String> headers) {
        this(payload, jobId, headers, 0);
    }

    /**
     * Returns the row's due time for a put at {@code now}: its own when later, else {@code now}.
     *
     * @param now the put's time, in epoch milliseconds
     * @return the {@code available_at} to store
     */
    public long availableAt(long now) {
        return Math.max(now, dueAt);
    }

    /**
     * A job without headers.
     *
     * @param payload the stored bytes
     * @param jobId the deduplication key, or null
     */
    public NewJob(byte[] payload, @Nullable String jobId) {
        this(payload, jobId, Map.of());
    }

    /**
     * Binds this job's row to the nine parameters of a one-row insert, in the order both stores' inserts name their
     * columns: queue, payload, max_attempts, available_at, job_id, created_at, updated_at, priority, concurrency_key.
     *
     * @param statement the insert, its parameters 1 to 9 still to bind
     * @param queue the queue
     * @param maxAttempts the queue's delivery budget
     * @param now the put's time, epoch milliseconds
     * @throws SQLException when the driver refuses a value
     */
    public void bindRow(PreparedStatement statement, String queue, int maxAttempts, long now) throws SQLException {
        statement.setString(1, queue);
        statement.setBytes(2, payload);
        statement.setInt(3, maxAttempts);
        statement.setLong(4, availableAt(now));
        statement.setString(5, jobId);
        statement.setLong(6, now);
        statement.setLong(7, now);
        statement.setInt(8, priority);
        statement.setString(9, concurrencyKey);
    }
}
