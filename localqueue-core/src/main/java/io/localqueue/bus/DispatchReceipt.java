package io.localqueue.bus;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a dispatch stored, once committed: for each subscription routing the event (sorted by name), its delivery's
 * id and whether that delivery is new or an existing one with the same event id or identity. Empty when nothing
 * routes the event and the bus does not require subscribers.
 *
 * @param eventId the event's id
 * @param eventType the event's type name
 * @param subscriptions the subscriptions, sorted
 * @param messageIds the delivery ids, index by index
 * @param inserted whether each delivery is new, index by index
 * @since 0.1.0
 */
public record DispatchReceipt(UUID eventId, String eventType, List<String> subscriptions, List<Long> messageIds,
                              List<Boolean> inserted) {

    /** Copies the lists, which must be of one length. */
    public DispatchReceipt {
        subscriptions = List.copyOf(subscriptions);
        messageIds = List.copyOf(messageIds);
        inserted = List.copyOf(inserted);
        if (subscriptions.size() != messageIds.size() || subscriptions.size() != inserted.size()) {
            throw new IllegalArgumentException("subscriptions, messageIds and inserted must be of one length");
        }
    }

    /**
     * Returns the subscriptions whose delivery is new.
     *
     * @return the subscriptions, sorted
     */
    public List<String> insertedSubscriptions() {
        return pick(true);
    }

    /**
     * Returns the subscriptions that already held the event (same event id or identity).
     *
     * @return the subscriptions, sorted
     */
    public List<String> deduplicatedSubscriptions() {
        return pick(false);
    }

    /**
     * Returns how many deliveries are new.
     *
     * @return the count
     */
    public int insertedCount() {
        return insertedSubscriptions().size();
    }

    /**
     * Returns how many subscriptions already held the event.
     *
     * @return the count
     */
    public int deduplicatedCount() {
        return subscriptions.size() - insertedCount();
    }

    private List<String> pick(boolean wanted) {
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < subscriptions.size(); i++) {
            if (inserted.get(i) == wanted) {
                picked.add(subscriptions.get(i));
            }
        }
        return List.copyOf(picked);
    }
}
