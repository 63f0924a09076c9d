package io.localqueue.spring.actuate;

import io.localqueue.FailedMessage;
import io.localqueue.SimpleQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * One page of a queue's dead letters as the actuator endpoint reports them, oldest id first; each payload is shown
 * as a preview of at most {@value #PREVIEW_CHARS} characters of its stored bytes, so a page stays small whatever the
 * payloads hold.
 *
 * @param queue the queue name
 * @param limit how many dead letters the page holds at most
 * @param offset how many dead letters come before it
 * @param total how many dead letters the queue held at its last snapshot ({@link io.localqueue.spring.ObservedQueues}),
 *              which may be a few seconds older than the page
 * @param deadLetters the page
 * @since 0.1.0
 */
public record DeadLetterPage(String queue, int limit, int offset, long total, List<DeadLetter> deadLetters) {

    /** How many dead letters a page holds unless asked otherwise. */
    public static final int DEFAULT_LIMIT = 20;

    /** The most dead letters one page may hold. */
    public static final int MAX_LIMIT = 100;

    /** The longest payload preview, in characters. */
    public static final int PREVIEW_CHARS = 200;

    /**
     * Reads one page of a queue's dead letters.
     *
     * @param queue the queue
     * @param total how many dead letters the queue holds, as last counted
     * @param limit how many at most, 1 to {@value #MAX_LIMIT}; null for {@value #DEFAULT_LIMIT}
     * @param offset how many to skip, zero or more; null for none
     * @param now the time the ages are counted to
     * @return the page
     * @throws InvalidEndpointRequestException (400 over HTTP) when {@code limit} or {@code offset} is out of range
     */
    static DeadLetterPage read(SimpleQueue<Object> queue, long total, @Nullable Integer limit,
                               @Nullable Integer offset, Instant now) {
        int size = limit != null ? limit : DEFAULT_LIMIT;
        int skip = offset != null ? offset : 0;
        if (size < 1 || size > MAX_LIMIT) {
            throw new InvalidEndpointRequestException("limit must be between 1 and " + MAX_LIMIT + ", got " + size,
                    "limit out of range");
        }
        if (skip < 0) {
            throw new InvalidEndpointRequestException("offset must not be negative, got " + skip,
                    "offset out of range");
        }
        List<DeadLetter> page = new ArrayList<>();
        for (FailedMessage<Object> failed : queue.listFailed(size, skip)) {
            page.add(DeadLetter.of(failed, now));
        }
        return new DeadLetterPage(queue.name(), size, skip, total, page);
    }

    /**
     * One dead letter.
     *
     * @param id its id, for a replay
     * @param reason why it failed, as stored ({@code retries_exhausted}…)
     * @param attempts its deliveries
     * @param lastError the last error recorded, or null
     * @param failureCategory the failure category, or null
     * @param createdAt when it was put
     * @param updatedAt when it failed
     * @param ageSeconds how long ago it failed
     * @param payloadBytes the size of its stored payload
     * @param payloadPreview the start of its payload as UTF-8 text, ending in "…" when cut
     * @param decodeError why the queue's serializer could not read the payload, or null
     * @since 0.1.0
     */
    public record DeadLetter(long id, String reason, int attempts, @Nullable String lastError,
                             @Nullable String failureCategory, Instant createdAt, Instant updatedAt, long ageSeconds,
                             int payloadBytes, String payloadPreview, @Nullable String decodeError) {

        static DeadLetter of(FailedMessage<Object> failed, Instant now) {
            byte[] raw = failed.rawPayload();
            return new DeadLetter(failed.id(), failed.reason().value(), failed.attempts(), failed.lastError(),
                    failed.failureCategory(), failed.createdAt(), failed.updatedAt(),
                    Math.max(0, Duration.between(failed.updatedAt(), now).toSeconds()), raw.length, preview(raw),
                    failed.decodeError());
        }

        private static String preview(byte[] raw) {
            // Never decode more bytes than the preview can show: a character takes at most 4 of them.
            int read = Math.min(raw.length, PREVIEW_CHARS * 4);
            String text = new String(raw, 0, read, StandardCharsets.UTF_8);
            if (text.length() <= PREVIEW_CHARS && read == raw.length) {
                return text;
            }
            int cut = Math.min(text.length(), PREVIEW_CHARS);
            if (cut > 0 && Character.isHighSurrogate(text.charAt(cut - 1))) {
                cut--;
            }
            return text.substring(0, cut) + "…";
        }
    }
}
