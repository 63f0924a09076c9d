package io.localqueue;

import io.localqueue.internal.store.StoredHeaders;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One job for {@code putMany}: its payload, an optional job id that deduplicates it within the queue, and optional
 * headers stored with the job (beside its payload, which stays exactly the bytes the serializer wrote) and handed
 * back by {@link Job#headers()} on every delivery.
 *
 * @param data the payload; null is refused when the batch is put
 * @param jobId the deduplication key, or null for none; a lone UTF-16 surrogate in it is refused when put
 * @param headers names to values, such as a trace context, kept in their order (a null map counts as none); an
 *                empty or null name, a null value, a lone UTF-16 surrogate, or more than
 *                {@link #MAX_HEADERS_LENGTH} characters in all are refused when put
 * @param options when the job is due (a null value counts as {@link EnqueueOptions#defaults()})
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public record EnqueueItem<T>(T data, @Nullable String jobId, Map<String, String> headers, EnqueueOptions options) {

    /**
     * The most characters the names and values of one job's headers may hold together: room for a W3C trace context
     * and a full W3C baggage header.
     *
     * @since 0.1.0
     */
    public static final int MAX_HEADERS_LENGTH = StoredHeaders.MAX_LENGTH;

    /**
     * Copies the headers, so that later changes to the caller's map do not reach the item; a null map counts as none.
     */
    public EnqueueItem {
        headers = headers == null || headers.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        options = options == null ? EnqueueOptions.defaults() : options;
    }

    /**
     * Creates an item due at once.
     *
     * @param data the payload; null is refused when the batch is put
     * @param jobId the deduplication key, or null for none
     * @param headers names to values stored with the job (a null map counts as none)
     * @since 0.1.0
     */
    public EnqueueItem(T data, @Nullable String jobId, Map<String, String> headers) {
        this(data, jobId, headers, EnqueueOptions.defaults());
    }

    /**
     * Returns this item due when {@code options} say.
     *
     * @param options when the job is due, not null
     * @return the new item
     * @since 0.1.0
     */
    public EnqueueItem<T> withOptions(EnqueueOptions options) {
        if (options == null) {
            throw new InvalidArgumentException("options", "options must not be null");
        }
        return new EnqueueItem<>(data, jobId, headers, options);
    }

    /**
     * Creates an item without headers.
     *
     * @param data the payload; null is refused when the batch is put
     * @param jobId the deduplication key, or null for none
     * @since 0.1.0
     */
    public EnqueueItem(T data, @Nullable String jobId) {
        this(data, jobId, Map.of());
    }

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

    /**
     * Returns this item with {@code headers} instead of its own; a job id that resolves to an existing job keeps
     * that job's headers, as it keeps its payload.
     *
     * @param headers names to values, checked when the item is put
     * @return the new item
     * @since 0.1.0
     */
    public EnqueueItem<T> withHeaders(Map<String, String> headers) {
        return new EnqueueItem<>(data, jobId, headers, options);
    }
}
