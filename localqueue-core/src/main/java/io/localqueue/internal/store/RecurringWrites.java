package io.localqueue.internal.store;

/** The write transitions of recurring jobs, each inside a store's write transaction. */
public interface RecurringWrites {

    /**
     * Stores a definition, new or changed: a new one starts enabled at {@code now}; a changed cron or zone starts its
     * schedule again at {@code now}; the enabled state and the schedule's position are otherwise kept.
     *
     * @return the stored row
     */
    RecurringRow save(RecurringDefinition definition, long now);

    /**
     * Enables or disables a recurring job; enabling a disabled one starts its schedule at {@code now}, so the ticks
     * it was disabled for never fire.
     *
     * @return false when there is no such job, or it already was so
     */
    boolean setEnabled(String id, boolean enabled, long now);

    /**
     * Deletes a recurring job and its tick rows; the jobs its ticks enqueued stay.
     *
     * @return false when there was none
     */
    boolean delete(String id);

    /**
     * Fires one tick: records it with a row unique to the job and the tick, so that of all the processes that fire
     * it, one does and the others find it done; then enqueues the job (or passes the tick over) and moves the
     * schedule's position, all in the one transaction.
     *
     * @return what it did
     */
    FiredTick fire(TickFire tick);
}
