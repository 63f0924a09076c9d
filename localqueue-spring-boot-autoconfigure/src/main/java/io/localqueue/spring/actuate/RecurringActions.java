package io.localqueue.spring.actuate;

import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.spring.recurring.RecurringMethods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the endpoint shows of the recurring jobs stored with the queues and what an operator may do to one: enable it,
 * disable it or delete it (for every process), or run it now (a tick by hand that leaves its schedule as it is). Each
 * action that ran is logged at INFO.
 *
 * @since 0.1.0
 */
public final class RecurringActions {

    /** Enables a disabled recurring job; its schedule starts again from now; refused for an orphan. */
    public static final String ENABLE = "enable";
    /** Disables a recurring job for every process; jobs already enqueued stay. */
    public static final String DISABLE = "disable";
    /** Enqueues the recurring job's job now, enabled or not, without moving its schedule; refused for an orphan. */
    public static final String RUN_NOW = "run-now";
    /**
     * Deletes a recurring job and its record of ticks, for every process (an orphan's way out); a method that has its
     * id stores it again when its application starts.
     */
    public static final String DELETE = "delete";

    private static final Logger log = LoggerFactory.getLogger(RecurringActions.class);

    private RecurringActions() {
    }

    /** Describes every stored recurring job, orphans marked. */
    static List<RecurringDescriptor> list(RecurringMethods methods) {
        RecurringJobs jobs = methods.jobs();
        if (jobs == null) {
            return List.of();
        }
        List<RecurringDescriptor> all = new ArrayList<>();
        for (RecurringJob job : jobs.list()) {
            all.add(new RecurringDescriptor(job.id(), job.cron(), job.zone().getId(), job.queue(), job.isEnabled(),
                    methods.isOrphaned(job), job.missedTicks().name(), job.allowsOverlap(), job.lastTick(),
                    job.lastFiredAt(), job.lastJobId(), job.nextTick()));
        }
        return all;
    }

    /**
     * Runs one action on a recurring job.
     *
     * @return what happened, or null for a recurring job that is not stored, or no such action
     */
    static @Nullable ActionDescriptor run(RecurringMethods methods, String id, String action) {
        RecurringJobs jobs = methods.jobs();
        RecurringJob stored = jobs == null ? null : jobs.find(id);
        if (stored == null) {
            return null;
        }
        boolean orphaned = methods.isOrphaned(stored);
        ActionDescriptor done = switch (action) {
            case ENABLE -> orphaned ? refusedForOrphan(id, action, "not enabled")
                    : switched(id, action, jobs.enable(id), "enabled");
            case DISABLE -> switched(id, action, jobs.disable(id), "disabled");
            case RUN_NOW -> {
                if (orphaned) {
                    yield refusedForOrphan(id, action, "not run");
                }
                Long job = jobs.runNow(id);
                yield job == null ? null : new ActionDescriptor(id, action, 1, "enqueued job " + job, job);
            }
            case DELETE -> new ActionDescriptor(id, action, jobs.delete(id) ? 1 : 0,
                    "deleted for every process, with its record of ticks; the jobs it enqueued stay", null);
            default -> null;
        };
        if (done != null) {
            log.info("Operator action {} on recurring job '{}': {}", action, id, done.message());
        }
        return done;
    }

    /** The answer to an action that would enqueue jobs no method of this application runs. */
    private static ActionDescriptor refusedForOrphan(String id, String action, String refusal) {
        return new ActionDescriptor(id, action, 0, refusal + ": no @Recurring method of this application has its id,"
                + " so its jobs would be dead letters at once; delete it, or give a method its id", null);
    }

    private static ActionDescriptor switched(String id, String action, boolean changed, String state) {
        return new ActionDescriptor(id, action, changed ? 1 : 0,
                changed ? "now " + state + " for every process" : "was " + state + " already", null);
    }

    /**
     * A recurring job as stored with the queues.
     *
     * @param id its id
     * @param cron its cron expression
     * @param zone the zone the cron is read in
     * @param queue the queue its ticks are enqueued into
     * @param enabled whether its ticks fire
     * @param orphaned whether it enqueues into a queue of this application's {@code @Recurring} methods but no method
     *                 of it has its id (disabled at start)
     * @param missedTicks what becomes of ticks missed while no process ran schedules
     * @param allowOverlap whether a tick is enqueued while the previous one's job waits or runs
     * @param lastTick the last tick fired, or null
     * @param lastFiredAt when the last tick was fired, or null
     * @param lastJobId the job of the last tick, or null
     * @param nextTick the next tick, or null when disabled or none comes
     * @since 0.1.0
     */
    public record RecurringDescriptor(String id, String cron, String zone, String queue, boolean enabled,
                                      boolean orphaned, String missedTicks, boolean allowOverlap,
                                      @Nullable Instant lastTick, @Nullable Instant lastFiredAt,
                                      @Nullable Long lastJobId, @Nullable Instant nextTick) {
    }

    /**
     * What an action on a recurring job did.
     *
     * @param recurringJob the recurring job's id
     * @param action the action
     * @param affected 1 when it changed something, 0 when it was so already
     * @param message what happened
     * @param jobId the job a run-now enqueued, else null
     * @since 0.1.0
     */
    public record ActionDescriptor(String recurringJob, String action, int affected, String message,
                                   @Nullable Long jobId) {
    }
}
