package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * A dead letter as stored.
 *
 * @param id the message id
 * @param payload the stored bytes
 * @param attempts the raw claim count
 * @param lastError the last recorded error
 * @param failureReason the stored reason text
 * @param failureCategory the stored category
 * @param createdAt epoch milliseconds
 * @param updatedAt epoch milliseconds
 * @param priority the priority it had and keeps when retried; 0 for the default
 * @param concurrencyKey its concurrency key, or null
 */
public record FailedRow(long id, byte[] payload, int attempts, @Nullable String lastError,
                        @Nullable String failureReason, @Nullable String failureCategory, long createdAt,
                        long updatedAt, int priority, @Nullable String concurrencyKey) {
}
