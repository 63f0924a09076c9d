package io.localqueue;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A dead letter as stored; when the payload cannot be decoded, {@code data} is null, {@code decodeError} says why and
 * {@code rawPayload} still holds the exact stored bytes.
 *
 * @param id the message id, usable with {@code retryFailed}
 * @param data the decoded payload, or null when decoding failed (or the payload itself is null)
 * @param rawPayload the stored bytes, never modified
 * @param attempts how many times the job was claimed (not zero-based, unlike {@link Job#attempts()})
 * @param reason why the job failed
 * @param lastError the last error recorded by a nack or fail, if any
 * @param failureCategory a finer category recorded by the event bus, if any
 * @param createdAt when the job was first put
 * @param updatedAt when the job last changed state
 * @param decodeError "ExceptionClass: message" when the payload could not be decoded, else null
 * @param priority the priority it was put with, which it keeps when retried; 0 for the default
 * @param concurrencyKey the key it was put with, or null
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public record FailedMessage<T>(
        long id,
        @Nullable T data,
        byte[] rawPayload,
        int attempts,
        FailureReason reason,
        @Nullable String lastError,
        @Nullable String failureCategory,
        Instant createdAt,
        Instant updatedAt,
        @Nullable String decodeError,
        int priority,
        @Nullable String concurrencyKey) {

    /**
     * Returns whether the payload was decoded; false means {@code data} is null because decoding failed.
     *
     * @return true when {@code decodeError} is null
     */
    public boolean decoded() {
        return decodeError == null;
    }
}
