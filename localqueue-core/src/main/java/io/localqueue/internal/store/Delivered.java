package io.localqueue.internal.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a fan-out did: each delivery's row id and whether it is new, in input order; or why nothing was written
 * (a queue lacked room); or the conflict that must roll the whole fan-out back.
 *
 * @param ids the row ids in input order, empty when nothing was written
 * @param inserted for each delivery, true when its row is new and false when an existing row stands for it
 * @param conflict what conflicts (an identity already stored with another payload, or an event id stored with
 *                 another identity), or null
 * @param fullQueue the queue that lacked room for its new rows, or null
 * @param impossible true when {@code fullQueue} would lack room even empty
 */
public record Delivered(List<Long> ids, List<Boolean> inserted, @Nullable String conflict,
                        @Nullable String fullQueue, boolean impossible) {

    /** What an empty fan-out did. */
    public static final Delivered NOTHING = new Delivered(List.of(), List.of(), null, null, false);

    /**
     * Returns the result of a fan-out that was written.
     *
     * @param ids the ids in input order
     * @param inserted whether each row is new
     * @return the result
     */
    public static Delivered written(List<Long> ids, List<Boolean> inserted) {
        return new Delivered(List.copyOf(ids), List.copyOf(inserted), null, null, false);
    }

    /**
     * Returns the result of a fan-out that conflicts.
     *
     * @param conflict what conflicts
     * @return the result
     */
    public static Delivered conflicting(String conflict) {
        return new Delivered(List.of(), List.of(), conflict, null, false);
    }

    /**
     * Returns the result of a fan-out that a queue lacked room for.
     *
     * @param queue the queue
     * @param impossible whether it would lack room even empty
     * @return the result
     */
    public static Delivered full(String queue, boolean impossible) {
        return new Delivered(List.of(), List.of(), null, queue, impossible);
    }

    /**
     * Returns the headers each store writes after a fan-out: those of the deliveries whose rows are new; a row that
     * stood for a delivery keeps its own, and a delivery without headers writes none.
     *
     * @param deliveries the fan-out's deliveries, in the order of {@link #ids()}
     * @return each new row's id with its headers, in input order
     */
    public Map<Long, Map<String, String>> newRowHeaders(List<Delivery> deliveries) {
        Map<Long, Map<String, String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < deliveries.size(); i++) {
            if (inserted.get(i) && !deliveries.get(i).headers().isEmpty()) {
                headers.put(ids.get(i), deliveries.get(i).headers());
            }
        }
        return headers;
    }

    /**
     * Tells whether the rows were written.
     *
     * @return true unless a queue lacked room or there was a conflict
     */
    public boolean written() {
        return conflict == null && fullQueue == null;
    }
}
