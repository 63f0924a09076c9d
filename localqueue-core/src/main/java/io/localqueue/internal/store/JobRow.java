package io.localqueue.internal.store;

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
}
