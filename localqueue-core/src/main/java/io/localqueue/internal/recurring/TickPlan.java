package io.localqueue.internal.recurring;

import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.TickFire;
import org.jspecify.annotations.Nullable;

/**
 * What a recurring job's schedule asks for at a time: a tick to fire now, or the time of its next tick. A tick up to
 * {@link #LATE_MILLIS} late still fires, each in turn, when the process planning it was running the schedule when it
 * fell due (it was busy, or waited for the file); a tick later than that, or one that fell due before the process
 * started running schedules, was missed: no process ran the schedule then. Of the missed ticks only the last can run,
 * once, and only when no tick after it is due yet and the job does not skip missed ticks, so that downtime never
 * brings a burst, however close to the restart the ticks fell.
 *
 * @param tickAt the tick to fire now, or the next tick to wait for
 * @param kind how to fire it, or null when it is not due yet
 */
public record TickPlan(long tickAt, TickFire.@Nullable Kind kind) {

    /** How late a tick may be and still fire as scheduled: later, it counts as missed. */
    public static final long LATE_MILLIS = 10_000;

    /**
     * How many ticks a plan steps through to find the last missed one; beyond, it passes over the last it reached,
     * and the next plan goes on from there.
     */
    static final int MOST_STEPS = 100_000;

    /**
     * Plans a recurring job's next step.
     *
     * @param now the time
     * @param runningSince when the planning process began to run schedules: the ticks before were missed
     * @return the plan, or null when the schedule has no tick left
     */
    public static @Nullable TickPlan at(RecurringRow row, CronSchedule schedule, long now, long runningSince) {
        Long next = schedule.nextAfter(row.position());
        if (next == null) {
            return null;
        }
        if (next > now) {
            return new TickPlan(next, null);
        }
        if (!missed(next, now, runningSince)) {
            return new TickPlan(next, TickFire.Kind.SCHEDULED);
        }
        long lastMissed = next;
        for (int step = 0; step < MOST_STEPS; step++) {
            Long after = schedule.nextAfter(lastMissed);
            if (after == null || after > now) {
                break;
            }
            if (!missed(after, now, runningSince)) {
                return new TickPlan(lastMissed, TickFire.Kind.MISSED); // a tick after it is due: it runs instead
            }
            lastMissed = after;
        }
        return new TickPlan(lastMissed, row.definition().skipMissed() ? TickFire.Kind.MISSED
                : TickFire.Kind.SCHEDULED);
    }

    /** Whether a due tick was missed: too late, or due before the process ran schedules. */
    private static boolean missed(long tick, long now, long runningSince) {
        return now - tick > LATE_MILLIS || tick < runningSince;
    }

    /**
     * Tells whether the plan fires a tick now.
     *
     * @return true when the tick is due
     */
    public boolean due() {
        return kind != null;
    }
}
