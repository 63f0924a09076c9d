package io.localqueue.internal;

import org.jspecify.annotations.Nullable;

/**
 * A serialized job on its way into the table.
 *
 * @param payload the stored bytes
 * @param jobId the deduplication key, or null
 */
public record NewJob(byte[] payload, @Nullable String jobId) {
}
