package io.localqueue.spring.actuate;

import io.localqueue.FailedMessage;
import io.localqueue.FailureReason;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.FailedDelivery;
import io.localqueue.bus.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * One page of a queue's or an event-bus subscription's dead letters as the actuator endpoint reports them, oldest id
 * first; each payload (a subscription's: its stored envelope) is shown
 * as a preview of at most {@value #PREVIEW_CHARS} characters of its stored bytes, so a page stays small whatever the
 * payloads hold.
 *
 * @param queue the queue name; for a subscription, the name of its queue ({@code __bus__:<bus>:<subscription>})
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

    private static final byte[] PAYLOAD_KEY = "\"payload\": ".getBytes(StandardCharsets.UTF_8);

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
        return read(queue.name(), total, limit, offset, (size, skip) -> queue.listFailed(size, skip).stream()
                .map(failed -> DeadLetter.of(failed, now)).toList());
    }

    /**
     * Reads one page of a subscription's dead letters.
     *
     * @param subscription the subscription
     * @param total how many dead letters it holds, as last counted
     * @param limit how many at most, 1 to {@value #MAX_LIMIT}; null for {@value #DEFAULT_LIMIT}
     * @param offset how many to skip, zero or more; null for none
     * @param now the time the ages are counted to
     * @return the page
     * @throws InvalidEndpointRequestException (400 over HTTP) when {@code limit} or {@code offset} is out of range
     */
    static DeadLetterPage read(Subscription subscription, long total, @Nullable Integer limit,
                               @Nullable Integer offset, Instant now) {
        return read(subscription.queueName(), total, limit, offset, (size, skip) -> subscription.listFailed(size, skip)
                .stream().map(failed -> DeadLetter.of(failed, now)).toList());
    }

    private static DeadLetterPage read(String queue, long total, @Nullable Integer limit, @Nullable Integer offset,
                                       BiFunction<Integer, Integer, List<DeadLetter>> lister) {
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
        return new DeadLetterPage(queue, size, skip, total, lister.apply(size, skip));
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
     * @param payloadPreview the start of its payload as UTF-8 text (of a subscription's: the envelope's
     *                       {@code "payload"} member), ending in "…" when cut
     * @param decodeError why the queue's serializer (a subscription's: the bus's event types) could not read the
     *                    payload, or null
     * @param eventType a subscription's dead letter's stored event type; null for a queue's, or an envelope
     *                  without one
     * @param eventId a subscription's dead letter's event id; null for a queue's, or an envelope that does not read
     * @since 0.1.0
     */
    public record DeadLetter(long id, String reason, int attempts, @Nullable String lastError,
                             @Nullable String failureCategory, Instant createdAt, Instant updatedAt, long ageSeconds,
                             int payloadBytes, String payloadPreview, @Nullable String decodeError,
                             @Nullable String eventType, @Nullable UUID eventId) {

        static DeadLetter of(FailedMessage<Object> failed, Instant now) {
            return of(failed.id(), failed.reason(), failed.attempts(), failed.lastError(), failed.failureCategory(),
                    failed.createdAt(), failed.updatedAt(), now, failed.rawPayload(), failed.decodeError(), null, null);
        }

        static DeadLetter of(FailedDelivery failed, Instant now) {
            return of(failed.id(), failed.reason(), failed.attempts(), failed.lastError(), failed.failureCategory(),
                    failed.createdAt(), failed.updatedAt(), now, failed.rawPayload(), failed.inspectionError(),
                    failed.eventType(), failed.metadata() == null ? null : failed.metadata().eventId());
        }

        private static DeadLetter of(long id, FailureReason reason, int attempts, @Nullable String lastError,
                                     @Nullable String category, Instant createdAt, Instant updatedAt, Instant now,
                                     byte[] raw, @Nullable String decodeError, @Nullable String eventType,
                                     @Nullable UUID eventId) {
            byte[] shown = eventType == null ? raw : envelopePayload(raw);
            return new DeadLetter(id, reason.value(), attempts, lastError, category, createdAt, updatedAt,
                    Math.max(0, Duration.between(updatedAt, now).toSeconds()), raw.length, preview(shown),
                    decodeError, eventType, eventId);
        }

        /**
         * The {@code "payload": …} member of an envelope, which the bus (as Python's) writes last, after the
         * metadata a preview would otherwise be spent on; the whole envelope when it is not found. The first match
         * is the member: no metadata value (ids, a type name, a time) can hold the key.
         */
        private static byte[] envelopePayload(byte[] envelope) {
            int at = indexOf(envelope, PAYLOAD_KEY);
            if (at < 0 || envelope.length == 0 || envelope[envelope.length - 1] != '}') {
                return envelope;
            }
            return java.util.Arrays.copyOfRange(envelope, at + PAYLOAD_KEY.length, envelope.length - 1);
        }

        private static int indexOf(byte[] bytes, byte[] part) {
            for (int start = 0; start + part.length <= bytes.length; start++) {
                if (java.util.Arrays.equals(bytes, start, start + part.length, part, 0, part.length)) {
                    return start;
                }
            }
            return -1;
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
