package io.localqueue.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job as stored, in any status, as an operator's read returns it.
 *
 * @param id the message id
 * @param jobId the job id, or null
 * @param status its {@link RowStatus}
 * @param payload the stored bytes
 * @param headers its headers, empty for none
 * @param attempts the raw claim count
 * @param maxAttempts the claims its budget allows
 * @param storedPriority the priority column as stored: held jobs shifted ({@link HeldPriority}), SQLite's unswept NULL
 *                       as 0; the cursor of a page in claim order
 * @param priority the job's own priority
 * @param concurrencyKey its concurrency key, or null
 * @param availableAt when it falls due, epoch milliseconds
 * @param leaseUntil when its lease ends, epoch milliseconds, or null
 * @param createdAt epoch milliseconds
 * @param updatedAt epoch milliseconds
 * @param lastError the last recorded error, or null
 * @param failureReason the stored reason text, or null
 */
public record JobRow(long id, @Nullable String jobId, int status, byte[] payload, Map<String, String> headers,
                     int attempts, int maxAttempts, int storedPriority, int priority, @Nullable String concurrencyKey,
                     long availableAt, @Nullable Long leaseUntil, long createdAt, long updatedAt,
                     @Nullable String lastError, @Nullable String failureReason) {

    /**
     * Reads the current row of a store's job query, whose columns come in the order of this record's components
     * (the headers as their stored text, the lease's end NULL when there is none): every store selects them so.
     *
     * @param rows the result set, on a row
     * @return the row
     * @throws SQLException when the driver fails
     */
    public static JobRow read(ResultSet rows) throws SQLException {
        long leaseUntil = rows.getLong(12);
        Long lease = rows.wasNull() ? null : leaseUntil;
        return new JobRow(rows.getLong(1), rows.getString(2), rows.getInt(3), rows.getBytes(4),
                StoredHeaders.decode(rows.getString(5)), rows.getInt(6), rows.getInt(7), rows.getInt(8),
                rows.getInt(9), rows.getString(10), rows.getLong(11), lease, rows.getLong(13), rows.getLong(14),
                rows.getString(15), rows.getString(16));
    }
}
