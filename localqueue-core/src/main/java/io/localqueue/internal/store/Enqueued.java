package io.localqueue.internal.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an enqueue transition did: ids in input order, or why nothing was written.
 *
 * @param ids the ids, or null when the queue lacked room
 * @param newRows when the queue lacked room, how many rows the batch would add (duplicates and job ids already
 *                present excluded); when written, how many jobs the batch held
 * @param impossible true when the batch adds more rows than the limit allows even on an empty queue
 */
public record Enqueued(@Nullable List<Long> ids, long newRows, boolean impossible) {

    /**
     * Returns the result of a batch that was written.
     *
     * @param ids the ids in input order
     * @return the result
     */
    public static Enqueued written(List<Long> ids) {
        return new Enqueued(ids, ids.size(), false);
    }

    /**
     * Returns the result of a batch that waits for room.
     *
     * @param newRows how many rows it would add
     * @param impossible whether it can never fit
     * @return the result
     */
    public static Enqueued full(long newRows, boolean impossible) {
        return new Enqueued(null, newRows, impossible);
    }
}
