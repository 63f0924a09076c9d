package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * A ready job as stored, delayed or due.
 *
 * @param id the message id
 * @param payload the stored bytes
 * @param attempts the raw claim count so far
 * @param availableAt when it falls due, epoch milliseconds
 * @param createdAt when it was put, epoch milliseconds
 * @param lastError the error its last delivery recorded, if any
 * @param priority its priority; 0 for the default
 * @param concurrencyKey its concurrency key, or null
 */
public record ReadyRow(long id, byte[] payload, int attempts, long availableAt, long createdAt,
                       @Nullable String lastError, int priority, @Nullable String concurrencyKey) {
}
