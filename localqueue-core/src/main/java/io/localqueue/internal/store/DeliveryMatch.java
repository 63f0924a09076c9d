package io.localqueue.internal.store;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which stored row stands for a delivery whose insert was skipped because its queue holds its event id or identity
 * already, or why none can: the row found by event id and the one found by identity key must be one row, with the
 * delivery's identity and payload fingerprint. Every store looks the rows up in its own SQL and judges them here.
 *
 * @param id the row that stands for the delivery, or -1 with a conflict
 * @param conflict what conflicts, or null
 */
public record DeliveryMatch(long id, @Nullable String conflict) {

    /**
     * A stored row's keys.
     *
     * @param id the row
     * @param dedupKey its identity key, or null
     * @param fingerprint its payload fingerprint, or null
     */
    public record Stored(long id, @Nullable String dedupKey, @Nullable String fingerprint) {
    }

    /**
     * Judges the rows found for a delivery.
     *
     * @param delivery the delivery
     * @param byEventId the row holding its event id in its queue, or null
     * @param byIdentity the row holding its identity key in its queue, or null (always null without an identity)
     * @return the row that stands for it, or the conflict that must roll the fan-out back
     * @throws IllegalStateException when neither row exists, which a skipped insert rules out
     */
    public static DeliveryMatch judge(Delivery delivery, @Nullable Stored byEventId, @Nullable Stored byIdentity) {
        String where = "in queue '" + delivery.queue() + "'";
        if (byEventId != null && byIdentity != null && byEventId.id() != byIdentity.id()) {
            return conflict("event " + delivery.jobId() + " and its identity are stored as different deliveries ("
                    + byEventId.id() + " and " + byIdentity.id() + ") " + where);
        }
        if (byEventId != null && delivery.dedupKey() != null
                && (!Objects.equals(byEventId.dedupKey(), delivery.dedupKey())
                || !Objects.equals(byEventId.fingerprint(), delivery.dedupFingerprint()))) {
            return conflict("event " + delivery.jobId() + " is stored " + where + " as delivery " + byEventId.id()
                    + " with another identity or payload");
        }
        if (byIdentity != null && !Objects.equals(byIdentity.fingerprint(), delivery.dedupFingerprint())) {
            return conflict("the identity of event " + delivery.jobId() + " is stored " + where + " as delivery "
                    + byIdentity.id() + " with another payload");
        }
        Stored found = byEventId != null ? byEventId : byIdentity;
        if (found == null) {
            throw new IllegalStateException("delivery of event " + delivery.jobId() + " " + where
                    + " conflicted, but no row holds its event id or identity");
        }
        return new DeliveryMatch(found.id(), null);
    }

    private static DeliveryMatch conflict(String conflict) {
        return new DeliveryMatch(-1, conflict);
    }
}
