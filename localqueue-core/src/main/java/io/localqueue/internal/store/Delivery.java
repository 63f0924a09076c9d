package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * One event-bus delivery on its way into a subscription's queue: a row keyed by the event's id, and by its durable
 * identity when the event has one.
 *
 * @param queue the subscription's queue
 * @param payload the stored envelope
 * @param jobId the event id, which deduplicates a repeated dispatch of the same event
 * @param maxAttempts the delivery budget stored with a new row
 * @param dedupKey the identity key, or null for an event without identity
 * @param dedupFingerprint the payload fingerprint; null exactly when {@code dedupKey} is
 */
public record Delivery(String queue, byte[] payload, String jobId, int maxAttempts, @Nullable String dedupKey,
                       @Nullable String dedupFingerprint) {

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
}
