package io.localqueue.internal.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A serialized job on its way into a queue.
 *
 * @param payload the stored bytes
 * @param jobId the deduplication key, or null
 * @param headers names to values stored with the job, checked already; empty for none
 */
public record NewJob(byte[] payload, @Nullable String jobId, Map<String, String> headers) {

    /**
     * A job without headers.
     *
     * @param payload the stored bytes
     * @param jobId the deduplication key, or null
     */
    public NewJob(byte[] payload, @Nullable String jobId) {
        this(payload, jobId, Map.of());
    }
}
