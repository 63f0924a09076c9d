package io.localqueue.internal.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One event-bus delivery on its way into a subscription's queue: a row keyed by the event's id, and by its durable
 * identity when the event has one, with the headers a new row is stored with.
 *
 * @param queue the subscription's queue
 * @param payload the stored envelope
 * @param jobId the event id, which deduplicates a repeated dispatch of the same event
 * @param maxAttempts the delivery budget stored with a new row
 * @param dedupKey the identity key, or null for an event without identity
 * @param dedupFingerprint the payload fingerprint; null exactly when {@code dedupKey} is
 * @param headers names to values stored with a new row, checked already; empty for none. A row that stands for the
 *                delivery already keeps its own.
 */
public record Delivery(String queue, byte[] payload, String jobId, int maxAttempts, @Nullable String dedupKey,
                       @Nullable String dedupFingerprint, Map<String, String> headers) {

    /**
     * Checks that the identity key and fingerprint come together.
     *
     * @throws IllegalArgumentException when only one of them is given
     */
    public Delivery {
        if ((dedupKey == null) != (dedupFingerprint == null)) {
            throw new IllegalArgumentException("dedupKey and dedupFingerprint must be given together");
        }
    }

    /**
     * A delivery without headers.
     *
     * @param queue the subscription's queue
     * @param payload the stored envelope
     * @param jobId the event id
     * @param maxAttempts the delivery budget
     * @param dedupKey the identity key, or null
     * @param dedupFingerprint the payload fingerprint, or null
     */
    public Delivery(String queue, byte[] payload, String jobId, int maxAttempts, @Nullable String dedupKey,
                    @Nullable String dedupFingerprint) {
        this(queue, payload, jobId, maxAttempts, dedupKey, dedupFingerprint, Map.of());
    }

    /**
     * Returns this delivery with other headers.
     *
     * @param newHeaders the headers, checked already
     * @return the delivery
     */
    public Delivery withHeaders(Map<String, String> newHeaders) {
        return new Delivery(queue, payload, jobId, maxAttempts, dedupKey, dedupFingerprint, newHeaders);
    }
}
