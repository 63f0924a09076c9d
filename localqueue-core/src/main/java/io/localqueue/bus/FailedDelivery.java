package io.localqueue.bus;

import io.localqueue.FailureReason;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A dead letter of a subscription, read with the bus's current event types: {@code event} is null, and
 * {@code inspectionError} says why, when the type is unknown here or the payload no longer reads as it; the stored
 * reason is never rewritten.
 *
 * @param id the delivery's id, for {@link Subscription#retryFailed(long)}
 * @param subscription the subscription
 * @param event the event, or null when it cannot be read
 * @param eventType the stored type name, or null when the envelope has none
 * @param metadata the stored metadata, or null when it cannot be read
 * @param rawPayload the stored envelope bytes
 * @param attempts how many times it was claimed
 * @param reason why it failed
 * @param lastError the last diagnostic, or null
 * @param failureCategory the failure category, or null
 * @param createdAt when it was stored
 * @param updatedAt when it failed
 * @param inspectionError why {@code event} is null, or null
 * @since 0.1.0
 */
public record FailedDelivery(long id, String subscription, @Nullable Object event, @Nullable String eventType,
                             @Nullable EventMetadata metadata, byte[] rawPayload, int attempts, FailureReason reason,
                             @Nullable String lastError, @Nullable String failureCategory, Instant createdAt,
                             Instant updatedAt, @Nullable String inspectionError) {

    /** Shows the stored envelope as text (its first 200 characters), not as an array reference. */
    @Override
    public String toString() {
        String text = new String(rawPayload, java.nio.charset.StandardCharsets.UTF_8);
        return "FailedDelivery[id=" + id + ", subscription=" + subscription + ", eventType=" + eventType
                + ", reason=" + reason + ", lastError=" + lastError + ", failureCategory=" + failureCategory
                + ", attempts=" + attempts + ", createdAt=" + createdAt + ", updatedAt=" + updatedAt
                + (inspectionError == null ? "" : ", inspectionError=" + inspectionError) + ", rawPayload="
                + (text.length() > 200 ? text.substring(0, 200) + "…" : text) + "]";
    }
}
