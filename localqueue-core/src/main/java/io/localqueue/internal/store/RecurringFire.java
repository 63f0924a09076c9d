package io.localqueue.internal.store;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The firing of one tick of a recurring job, the same on every store: inside the caller's write transaction, the
 * recurring job's row is read (on a database server, locked), the tick is checked against the definition it was
 * computed from and the schedule's position, recorded with a row unique to the job and the tick, and its job enqueued
 * (or the tick passed over), so that of every process firing the same tick one does and the rest find it done.
 */
public final class RecurringFire {

    /** The header that names the recurring job a job was enqueued by. */
    public static final String ID_HEADER = "localqueue.recurring.id";

    /** The header that carries the tick a job was enqueued for, as an ISO-8601 instant. */
    public static final String TICK_HEADER = "localqueue.recurring.tick";

    /** The header a tick run by hand carries, with the value {@code true}. */
    public static final String MANUAL_HEADER = "localqueue.recurring.manual";

    /** How many tick rows of each recurring job are kept: older ones are deleted as new ones are recorded. */
    public static final int TICKS_KEPT = 100;

    private RecurringFire() {
    }

    /** What a store does for a tick, inside the tick's transaction. */
    public interface Steps {

        /** The recurring job's row, locked for the transaction where the store has row locks, or null for none. */
        @Nullable RecurringRow row(String id) throws SQLException;

        /**
         * Records the tick unless a row of the same job, time and kind is there.
         *
         * @return false when it was there already
         */
        boolean recordTick(String id, long tickAt, boolean manual, FiredTick.Outcome outcome, long now)
                throws SQLException;

        /** Enqueues the tick's job and returns its message id, and notes it on the tick's row. */
        long enqueue(String id, long tickAt, boolean manual, String queue, NewJob job, int maxAttempts, long now)
                throws SQLException;

        /**
         * Moves the recurring job on: its position to {@code tickAt} when not null, its last job to {@code jobId}
         * (fired at {@code now}) when not null.
         */
        void moved(String id, @Nullable Long tickAt, @Nullable Long jobId, long now) throws SQLException;

        /** Deletes the job's tick rows beyond the last {@value RecurringFire#TICKS_KEPT}. */
        void prune(String id) throws SQLException;
    }

    /**
     * Fires the tick.
     *
     * @return what it did
     */
    public static FiredTick fire(Steps steps, TickFire tick) throws SQLException {
        RecurringRow row = steps.row(tick.id());
        boolean manual = tick.kind() == TickFire.Kind.MANUAL;
        if (row == null || !manual && (!row.enabled() || row.version() != tick.version())) {
            return FiredTick.of(FiredTick.Outcome.STALE);
        }
        if (!manual && tick.tickAt() <= row.position()) {
            return FiredTick.of(FiredTick.Outcome.ALREADY_DONE);
        }
        RecurringDefinition definition = row.definition();
        FiredTick.Outcome outcome = tick.kind() == TickFire.Kind.MISSED ? FiredTick.Outcome.SKIPPED_MISSED
                : !manual && !definition.allowOverlap() && waitingOrRunning(row.lastJobStatus())
                ? FiredTick.Outcome.SKIPPED_OVERLAP : FiredTick.Outcome.ENQUEUED;
        if (!steps.recordTick(tick.id(), tick.tickAt(), manual, outcome, tick.now())) {
            return FiredTick.of(FiredTick.Outcome.ALREADY_DONE);
        }
        Long jobId = null;
        if (outcome == FiredTick.Outcome.ENQUEUED) {
            jobId = steps.enqueue(tick.id(), tick.tickAt(), manual, definition.queue(), job(definition, tick),
                    definition.maxAttempts(), tick.now());
        }
        steps.moved(tick.id(), manual ? null : tick.tickAt(), jobId, tick.now());
        steps.prune(tick.id());
        return new FiredTick(outcome, jobId);
    }

    private static boolean waitingOrRunning(@Nullable Integer status) {
        return status != null && (status == RowStatus.READY || status == RowStatus.LEASED);
    }

    /** The job a tick enqueues: the definition's payload, with the job id and headers that name the tick. */
    private static NewJob job(RecurringDefinition definition, TickFire tick) {
        boolean manual = tick.kind() == TickFire.Kind.MANUAL;
        String tickText = Instant.ofEpochMilli(tick.tickAt()).toString();
        Map<String, String> headers = manual
                ? Map.of(ID_HEADER, definition.id(), TICK_HEADER, tickText, MANUAL_HEADER, "true")
                : Map.of(ID_HEADER, definition.id(), TICK_HEADER, tickText);
        String jobId = "recurring:" + definition.id() + (manual ? ":manual:" : ":") + tickText;
        return new NewJob(definition.payload(), jobId, headers);
    }
}
