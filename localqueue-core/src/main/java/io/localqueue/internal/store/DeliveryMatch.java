package io.localqueue.internal.store;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /** Finds, in a store's own SQL, the stored rows that stand for a delivery whose insert was skipped. */
    @FunctionalInterface
    public interface Lookup {
        /**
         * Looks the rows up and judges them.
         *
         * @param delivery the skipped delivery
         * @return the match
         * @throws SQLException when the database fails
         */
        DeliveryMatch find(Delivery delivery) throws SQLException;
    }

    /**
     * Returns the key of a new row among the ids an insert returned.
     *
     * @param queue the row's queue
     * @param eventId its event id
     * @return the key
     */
    public static String rowKey(String queue, String eventId) {
        return queue + '\n' + eventId;
    }

    /**
     * Puts a fan-out's result together: each delivery's new row, or the stored row that stands for it.
     *
     * @param deliveries the deliveries in input order
     * @param insertedIds the new rows' ids by {@link #rowKey}; entries are taken out as they are used
     * @param lookup finds the row of a delivery whose insert was skipped
     * @return the ids and which are new, or the first conflict
     * @throws SQLException when a lookup fails
     */
    public static Delivered assemble(List<Delivery> deliveries, Map<String, Long> insertedIds, Lookup lookup)
            throws SQLException {
        List<Long> ids = new ArrayList<>(deliveries.size());
        List<Boolean> inserted = new ArrayList<>(deliveries.size());
        for (Delivery delivery : deliveries) {
            Long id = insertedIds.remove(rowKey(delivery.queue(), delivery.jobId()));
            if (id != null) {
                ids.add(id);
                inserted.add(true);
                continue;
            }
            DeliveryMatch existing = lookup.find(delivery);
            if (existing.conflict() != null) {
                return Delivered.conflicting(existing.conflict());
            }
            ids.add(existing.id());
            inserted.add(false);
        }
        return Delivered.written(ids, inserted);
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
