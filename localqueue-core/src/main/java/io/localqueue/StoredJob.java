package io.localqueue;

import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job as its queue stores it, in any state, read without claiming or changing it; when the payload cannot be
 * decoded, {@code data} is null, {@code decodeError} says why and {@code rawPayload} still holds the stored bytes.
 *
 * @param id the message id, as {@code put} returned it
 * @param queue the queue's name
 * @param jobId the job id it was put with, or null
 * @param state where it stands at the read
 * @param data the decoded payload, or null when decoding failed
 * @param rawPayload the stored bytes, never modified
 * @param decodeError "ExceptionClass: message" when the payload could not be decoded, else null
 * @param headers its headers, empty when it has none
 * @param attempts how many times it was claimed so far
 * @param maxAttempts how many claims its delivery budget allows
 * @param priority its priority (smaller is claimed first); 0 for the default, also while a full key holds it back
 * @param concurrencyKey the key it was put with, or null
 * @param dueAt when it falls (or fell) due
 * @param leaseUntil when its lease ends, while {@link JobState#LEASED}; otherwise null
 * @param createdAt when it was first put
 * @param updatedAt when it last changed state
 * @param lastError the error its last delivery recorded, if any
 * @param failureReason why it is a dead letter, or null; an unknown stored reason reads as null
 * @param cursor where a page that ends with it continues
 * @param <T> the payload type
 * @since 0.1.0
 */
public record StoredJob<T>(
        long id,
        String queue,
        @Nullable String jobId,
        JobState state,
        @Nullable T data,
        byte[] rawPayload,
        @Nullable String decodeError,
        Map<String, String> headers,
        int attempts,
        int maxAttempts,
        int priority,
        @Nullable String concurrencyKey,
        Instant dueAt,
        @Nullable Instant leaseUntil,
        Instant createdAt,
        Instant updatedAt,
        @Nullable String lastError,
        @Nullable FailureReason failureReason,
        JobCursor cursor) {

    /**
     * Returns whether the payload was decoded; false means {@code data} is null because decoding failed.
     *
     * @return true when {@code decodeError} is null
     * @since 0.1.0
     */
    public boolean decoded() {
        return decodeError == null;
    }
}
