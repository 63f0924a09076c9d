package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * A stored recurring job: its definition and where its schedule stands.
 *
 * @param definition what it enqueues and when
 * @param enabled whether its ticks fire
 * @param anchor when its schedule starts: the first tick is the first after this, or after {@code lastTick}; a new
 *               definition, a changed cron or zone, and an enable set it to their time, so none fires ticks from
 *               before it
 * @param lastTick the last scheduled tick that fired or was passed over (epoch milliseconds), or null for none
 * @param lastFiredAt when the last tick, scheduled or run by hand, enqueued its job, or null for never
 * @param lastJob the message id of the job the last tick enqueued, or null for none
 * @param lastJobStatus that job's row status, or null when it is gone (deleted) or there is none
 * @param version counts the definition's changes, so that a tick computed from an older one does not fire
 */
public record RecurringRow(RecurringDefinition definition, boolean enabled, long anchor, @Nullable Long lastTick,
                           @Nullable Long lastFiredAt, @Nullable Long lastJob, @Nullable Integer lastJobStatus,
                           long version) {

    /**
     * Returns the time after which the next scheduled tick comes.
     *
     * @return the last tick, or the anchor when it is later or there is none
     */
    public long position() {
        return lastTick == null ? anchor : Math.max(anchor, lastTick);
    }
}
