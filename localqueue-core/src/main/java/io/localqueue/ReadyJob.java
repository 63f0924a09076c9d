package io.localqueue;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A job waiting in its queue, due or delayed, as {@link SimpleQueue#listReady(int, int)} read it; when the payload
 * cannot be decoded, {@code data} is null, {@code decodeError} says why and {@code rawPayload} still holds the stored
 * bytes.
 *
 * @param id the message id
 * @param data the decoded payload, or null when decoding failed
 * @param rawPayload the stored bytes, never modified
 * @param attempts how many times the job was claimed so far: zero before its first delivery
 * @param availableAt when it falls due; a retry delay or a delayed {@code nack} puts this in the future
 * @param createdAt when the job was first put
 * @param lastError the error its last delivery recorded, if any
 * @param decodeError "ExceptionClass: message" when the payload could not be decoded, else null
 * @param priority its priority (smaller is claimed first); 0 for the default
 * @param concurrencyKey the key it was put with, or null
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public record ReadyJob<T>(
        long id,
        @Nullable T data,
        byte[] rawPayload,
        int attempts,
        Instant availableAt,
        Instant createdAt,
        @Nullable String lastError,
        @Nullable String decodeError,
        int priority,
        @Nullable String concurrencyKey) {

    /**
     * Returns whether the job is due at {@code now}, that is, whether a claim at that time may take it; pass the time
     * of the queue's clock.
     *
     * @param now the time to compare with
     * @return true when {@code availableAt} is not after {@code now}
     * @since 0.1.0
     */
    public boolean dueAt(Instant now) {
        return !availableAt.isAfter(now);
    }

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
