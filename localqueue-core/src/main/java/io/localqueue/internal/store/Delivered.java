package io.localqueue.internal.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a fan-out did: each delivery's row id and whether it is new, in input order, or the conflict that must roll
 * the whole fan-out back.
 *
 * @param ids the row ids in input order, empty when in conflict
 * @param inserted for each delivery, true when its row is new and false when an existing row stands for it
 * @param conflict what conflicts (an identity already stored with another payload, or an event id stored with
 *                 another identity), or null
 */
public record Delivered(List<Long> ids, List<Boolean> inserted, @Nullable String conflict) {

    /**
     * Returns the result of a fan-out that conflicts.
     *
     * @param conflict what conflicts
     * @return the result
     */
    public static Delivered conflicting(String conflict) {
        return new Delivered(List.of(), List.of(), conflict);
    }
}
