package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * A serialized job on its way into a queue.
 *
 * @param payload the stored bytes
 * @param jobId the deduplication key, or null
 */
public record NewJob(byte[] payload, @Nullable String jobId) {
}
