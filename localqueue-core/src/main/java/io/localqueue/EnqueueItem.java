package io.localqueue;

import org.jspecify.annotations.Nullable;

/**
 * One job for {@code putMany}: its payload and an optional job id that deduplicates it within the queue.
 *
 * @param data the payload; null is refused when the batch is put
 * @param jobId the deduplication key, or null for none; a lone UTF-16 surrogate in it is refused when put
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public record EnqueueItem<T>(T data, @Nullable String jobId) {

    /**
     * Creates an item without a job id, so it is always inserted as a new job.
     *
     * @param data the payload
     * @param <T> the payload type
     * @return the item
     */
    public static <T> EnqueueItem<T> of(T data) {
        return new EnqueueItem<>(data, null);
    }

    /**
     * Creates an item whose job id resolves to an existing job, in any state, when the queue already holds it.
     *
     * @param data the payload
     * @param jobId the deduplication key, or null for none; a lone UTF-16 surrogate in it is refused when put
     * @param <T> the payload type
     * @return the item
     */
    public static <T> EnqueueItem<T> of(T data, @Nullable String jobId) {
        return new EnqueueItem<>(data, jobId);
    }
}
