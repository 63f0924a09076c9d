package io.localqueue.internal.recurring;

import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.FiredTick;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.TickFire;
import io.localqueue.internal.store.WriteOptions;
import java.time.Clock;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires the due ticks of every enabled recurring job of a database, from this process: each pass reads the stored
 * definitions (so a job defined, changed, enabled or disabled by any process is seen within
 * {@link #REFRESH_MILLIS}), fires each due tick in a transaction of its own, where a tick that another process fired
 * first is a quiet no-op, and tells when the next tick or the next read is due. No process leads: every one that runs a
 * scheduler fires the same ticks, and the store lets one through.
 */
public final class RecurringScheduler {

    /** The longest a scheduler goes without reading the stored definitions. */
    public static final long REFRESH_MILLIS = 1_000;

    private static final Logger log = LoggerFactory.getLogger(RecurringScheduler.class);

    private final QueueStore store;
    private final Runnable ensureOpen;
    private final Clock clock;
    private final Map<String, CronSchedule> schedules = new HashMap<>();
    private final Map<String, String> refused = new HashMap<>();
    private final Map<String, Waiting> waits = new HashMap<>();
    /** When this process began to run schedules: the ticks due before count as missed. */
    private long runningSince;

    /**
     * Makes a scheduler.
     *
     * @param store the database
     * @param ensureOpen throws when the database handle was closed
     * @param clock the clock ticks are judged by
     */
    public RecurringScheduler(QueueStore store, Runnable ensureOpen, Clock clock) {
        this.store = store;
        this.ensureOpen = ensureOpen;
        this.clock = clock;
        this.runningSince = clock.millis();
    }

    /** Counts the ticks due before now as missed, as a process that begins to run schedules now must. */
    public synchronized void beginRunning() {
        runningSince = clock.millis();
    }

    /**
     * Reads the definitions and fires every tick due now.
     *
     * @return when the next pass is due, in epoch milliseconds on the scheduler's clock
     */
    public synchronized long runDue() {
        List<RecurringRow> rows = store.recurringJobs();
        long now = clock.millis();
        long next = now + REFRESH_MILLIS;
        for (RecurringRow row : rows) {
            if (!row.enabled()) {
                continue;
            }
            CronSchedule schedule = schedule(row);
            if (schedule == null) {
                continue;
            }
            Waiting waiting = waits.get(row.definition().id());
            if (waiting != null && waiting.stillFor(row) && waiting.tickAt() > now) {
                next = Math.min(next, waiting.tickAt()); // nothing changed and its tick has not come
                continue;
            }
            TickPlan plan = TickPlan.at(row, schedule, now, runningSince);
            while (plan != null && plan.due()) {
                FiredTick fired = fire(new TickFire(row.definition().id(), plan.tickAt(), plan.kind(), row.version(),
                        now));
                if (fired.outcome() == FiredTick.Outcome.STALE) {
                    plan = null; // changed since this pass read it: the next pass reads it again
                    next = now;
                    break;
                }
                row = moved(row, plan.tickAt());
                plan = TickPlan.at(row, schedule, now, runningSince);
            }
            if (plan != null) {
                next = Math.min(next, plan.tickAt());
                waits.put(row.definition().id(), new Waiting(row.version(), row.position(), plan.tickAt()));
            } else {
                waits.remove(row.definition().id());
            }
        }
        if (waits.size() > rows.size()) {
            waits.keySet().retainAll(rows.stream().map(row -> row.definition().id()).toList());
        }
        return next;
    }

    /**
     * The tick a recurring job waits for, and the version and position it was planned from: while they stand, the
     * plan stands, and a pass computes no cron.
     */
    private record Waiting(long version, long position, long tickAt) {

        boolean stillFor(RecurringRow row) {
            return row.version() == version && row.position() == position;
        }
    }

    /**
     * Fires one tick in a transaction of its own.
     *
     * @return what it did
     */
    public FiredTick fire(TickFire tick) {
        FiredTick fired = store.write(WriteOptions.standard("recurring tick", DurabilityMode.DURABLE), ensureOpen,
                writes -> writes.recurring().fire(tick));
        if (fired.outcome() == FiredTick.Outcome.ENQUEUED || fired.outcome() == FiredTick.Outcome.SKIPPED_OVERLAP
                || fired.outcome() == FiredTick.Outcome.SKIPPED_MISSED) {
            log.debug("Recurring job {}: tick {} {}", tick.id(), tick.tickAt(), fired.outcome());
        }
        return fired;
    }

    /** The row as it stands once a tick at {@code tickAt} was fired or found fired. */
    private static RecurringRow moved(RecurringRow row, long tickAt) {
        return new RecurringRow(row.definition(), row.enabled(), row.anchor(), tickAt, row.lastFiredAt(),
                row.lastJob(), row.lastJobStatus(), row.version());
    }

    /** The row's schedule, read once per cron and zone; a stored one this version cannot read is logged once. */
    private @Nullable CronSchedule schedule(RecurringRow row) {
        String id = row.definition().id();
        String key = row.definition().cron() + " " + row.definition().zone();
        CronSchedule cached = schedules.get(key);
        if (cached != null) {
            return cached;
        }
        try {
            CronSchedule schedule = CronSchedule.parse(row.definition().cron(), ZoneId.of(row.definition().zone()));
            schedules.put(key, schedule);
            return schedule;
        } catch (RuntimeException unreadable) {
            if (!key.equals(refused.put(id, key))) {
                log.warn("Recurring job {} does not fire: its cron '{}' in zone '{}' cannot be read: {}", id,
                        row.definition().cron(), row.definition().zone(), unreadable.getMessage());
            }
            return null;
        }
    }
}
