package io.localqueue;

import io.localqueue.internal.recurring.CronSchedule;
import io.localqueue.internal.store.RecurringDefinition;
import io.localqueue.internal.store.RecurringFire;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.StoredText;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A named cron schedule that enqueues a job into a queue once per tick, across every process on the file and every
 * host on the PostgreSQL schema: a definition built with {@link #builder(String, String)} and stored with
 * {@link RecurringJobs#schedule(RecurringJob)}, or a stored one as {@link RecurringJobs#list()} reads it, with where
 * its schedule stands. The cron is read as {@code @Scheduled} reads it: six fields, seconds first, or a macro such as
 * {@code @hourly}, in {@link #zone()} (UTC unless set), where a local time a daylight-saving change skips has no tick
 * that day and one it repeats has a tick at each of its two offsets.
 *
 * <pre>{@code
 * RecurringJob nightly = RecurringJob.builder("nightly-report", "0 0 2 * * *")
 *         .zone(ZoneId.of("Europe/Paris"))
 *         .enqueue(reports, new ReportRequest("daily"))
 *         .build();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class RecurringJob {

    /**
     * The longest recurring job id, in characters.
     *
     * @since 0.1.0
     */
    public static final int MAX_ID_LENGTH = 200;

    /**
     * The header of a recurring job's enqueued job that holds the recurring job's id.
     *
     * @since 0.1.0
     */
    public static final String ID_HEADER = RecurringFire.ID_HEADER;

    /**
     * The header of a recurring job's enqueued job that holds its tick, an ISO-8601 instant; for a run started by hand,
     * the time it was asked for.
     *
     * @since 0.1.0
     */
    public static final String TICK_HEADER = RecurringFire.TICK_HEADER;

    /**
     * The header present, {@code true}, on the job of a run started by hand ({@link RecurringJobs#runNow(String)}).
     *
     * @since 0.1.0
     */
    public static final String MANUAL_HEADER = RecurringFire.MANUAL_HEADER;

    /**
     * What happens to missed ticks: those no process fired within 10 seconds of their time, because none ran the
     * schedule (all of them stopped, say, for a deploy). A tick less late than that still fires, each in turn.
     *
     * @since 0.1.0
     */
    public enum MissedTicks {
        /**
         * The last missed tick runs once, late, unless a tick after it is already due; the ones before it never run.
         * The default.
         */
        RUN_ONCE,
        /** Missed ticks are passed over; the schedule goes on with its next tick. */
        SKIP
    }

    private final RecurringDefinition definition;
    private final boolean enabled;
    private final @Nullable Instant lastTick;
    private final @Nullable Instant lastFiredAt;
    private final @Nullable Long lastJobId;
    private final @Nullable Instant nextTick;

    private RecurringJob(RecurringDefinition definition, boolean enabled, @Nullable Instant lastTick,
                         @Nullable Instant lastFiredAt, @Nullable Long lastJobId, @Nullable Instant nextTick) {
        this.definition = definition;
        this.enabled = enabled;
        this.lastTick = lastTick;
        this.lastFiredAt = lastFiredAt;
        this.lastJobId = lastJobId;
        this.nextTick = nextTick;
    }

    /**
     * Starts a definition.
     *
     * @param id the name, unique on the database: 1 to {@value #MAX_ID_LENGTH} characters
     * @param cron six fields, seconds first ({@code "0 0 2 * * *"}), or {@code @yearly}, {@code @monthly},
     *             {@code @weekly}, {@code @daily}, {@code @midnight} or {@code @hourly}
     * @return the builder; {@link Builder#enqueue} is required
     * @throws InvalidArgumentException naming {@code id} or {@code cron} when one is malformed
     * @since 0.1.0
     */
    public static Builder builder(String id, String cron) {
        return new Builder(requireId(id), requireCron(cron));
    }

    /** A stored recurring job as a read sees it, with its next tick computed from where its schedule stands. */
    static RecurringJob stored(RecurringRow row) {
        RecurringDefinition definition = row.definition();
        Instant next = null;
        if (row.enabled()) {
            try {
                Long tick = CronSchedule.parse(definition.cron(), ZoneId.of(definition.zone())).nextAfter(
                        row.position());
                next = tick == null ? null : Instant.ofEpochMilli(tick);
            } catch (RuntimeException unreadable) {
                next = null; // a cron this version cannot read never fires
            }
        }
        return new RecurringJob(definition, row.enabled(), instant(row.lastTick()), instant(row.lastFiredAt()),
                row.lastJob(), next);
    }

    private static @Nullable Instant instant(@Nullable Long epochMillis) {
        return epochMillis == null ? null : Instant.ofEpochMilli(epochMillis);
    }

    RecurringDefinition definition() {
        return definition;
    }

    /**
     * Returns the name.
     *
     * @return the id
     * @since 0.1.0
     */
    public String id() {
        return definition.id();
    }

    /**
     * Returns the cron expression, as given.
     *
     * @return the cron
     * @since 0.1.0
     */
    public String cron() {
        return definition.cron();
    }

    /**
     * Returns the zone the cron's times are in.
     *
     * @return the zone; UTC unless set
     * @since 0.1.0
     */
    public ZoneId zone() {
        return ZoneId.of(definition.zone());
    }

    /**
     * Returns the queue each tick enqueues its job into.
     *
     * @return the queue's name
     * @since 0.1.0
     */
    public String queue() {
        return definition.queue();
    }

    /**
     * Returns what happens to ticks missed while no process ran the schedule.
     *
     * @return the policy; {@link MissedTicks#RUN_ONCE} unless set
     * @since 0.1.0
     */
    public MissedTicks missedTicks() {
        return definition.skipMissed() ? MissedTicks.SKIP : MissedTicks.RUN_ONCE;
    }

    /**
     * Tells whether a tick enqueues its job while the job of the tick before is still waiting or running; when not (the
     * default), such a tick is passed over.
     *
     * @return true when ticks may overlap
     * @since 0.1.0
     */
    public boolean allowsOverlap() {
        return definition.allowOverlap();
    }

    /**
     * Tells whether the schedule fires; a definition not yet stored is enabled.
     *
     * @return false once disabled
     * @since 0.1.0
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Returns the last scheduled tick that fired or was passed over (not one run by hand).
     *
     * @return the tick, or null for none yet
     * @since 0.1.0
     */
    public @Nullable Instant lastTick() {
        return lastTick;
    }

    /**
     * Returns when a tick (scheduled or run by hand) last enqueued a job.
     *
     * @return the time on the clock of the process that fired it, or null for never
     * @since 0.1.0
     */
    public @Nullable Instant lastFiredAt() {
        return lastFiredAt;
    }

    /**
     * Returns the id of the job the last tick enqueued, as {@link Job#id()} gives it.
     *
     * @return the id, or null for none yet
     * @since 0.1.0
     */
    public @Nullable Long lastJobId() {
        return lastJobId;
    }

    /**
     * Returns the next tick of the schedule, as it stood when this was read.
     *
     * @return the tick, or null while disabled, for a definition not yet stored, or when the cron has none left
     * @since 0.1.0
     */
    public @Nullable Instant nextTick() {
        return nextTick;
    }

    @Override
    public String toString() {
        return "RecurringJob[" + id() + ", cron='" + cron() + "', zone=" + definition.zone() + ", queue=" + queue()
                + ", enabled=" + enabled + ", lastTick=" + lastTick + ", nextTick=" + nextTick + "]";
    }

    private static String requireId(@Nullable String id) {
        if (id == null || id.isBlank()) {
            throw new InvalidArgumentException("id", "a recurring job needs an id, got " + (id == null ? "null"
                    : "'" + id + "'"));
        }
        if (id.length() > MAX_ID_LENGTH) {
            throw new InvalidArgumentException("id", "id is " + id.length() + " characters, over the limit of "
                    + MAX_ID_LENGTH);
        }
        return StoredText.requireWellFormed(id, "id");
    }

    /** Reads the cron once, here: its fields do not depend on the zone it is later read in. */
    private static String requireCron(@Nullable String cron) {
        if (cron == null) {
            throw new InvalidArgumentException("cron", "a recurring job needs a cron, got null");
        }
        try {
            CronSchedule.parse(cron, ZoneOffset.UTC);
        } catch (IllegalArgumentException malformed) {
            throw new InvalidArgumentException("cron", "cron '" + cron + "' is not a cron expression: "
                    + malformed.getMessage(), malformed);
        }
        return cron;
    }

    /**
     * Builds a recurring job's definition.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private final String id;
        private final String cron;
        private ZoneId zone = ZoneOffset.UTC;
        private MissedTicks missedTicks = MissedTicks.RUN_ONCE;
        private boolean allowOverlap;
        private @Nullable String queue;
        private byte @Nullable [] payload;
        private int maxAttempts;

        private Builder(String id, String cron) {
            this.id = id;
            this.cron = cron;
        }

        /**
         * Sets the zone the cron's times are in. Default UTC, so that every host reads the schedule alike.
         *
         * @param zone the zone
         * @return this builder
         * @since 0.1.0
         */
        public Builder zone(ZoneId zone) {
            this.zone = Objects.requireNonNull(zone, "zone");
            return this;
        }

        /**
         * Sets what happens to ticks missed while no process ran the schedule. Default {@link MissedTicks#RUN_ONCE}.
         *
         * @param missedTicks the policy
         * @return this builder
         * @since 0.1.0
         */
        public Builder missedTicks(MissedTicks missedTicks) {
            this.missedTicks = Objects.requireNonNull(missedTicks, "missedTicks");
            return this;
        }

        /**
         * Sets whether a tick enqueues its job while the job of the tick before is still waiting or running (retries
         * included). Default false: such a tick is passed over.
         *
         * @param allowOverlap true to enqueue every tick
         * @return this builder
         * @since 0.1.0
         */
        public Builder allowOverlap(boolean allowOverlap) {
            this.allowOverlap = allowOverlap;
            return this;
        }

        /**
         * Sets the job each tick enqueues: the payload, serialized now with the queue's serializer, into the queue,
         * with its delivery budget; the queue must be on the database the job is scheduled on.
         *
         * @param queue the queue
         * @param payload the payload of every tick's job
         * @param <T> the payload type
         * @return this builder
         * @throws IllegalArgumentException when the queue's serializer refuses the payload
         * @since 0.1.0
         */
        public <T> Builder enqueue(SimpleQueue<T> queue, T payload) {
            Objects.requireNonNull(queue, "queue");
            this.queue = queue.name();
            this.payload = queue.serialize(payload, "payload");
            this.maxAttempts = queue.delivery().maxAttempts();
            return this;
        }

        /**
         * Builds the definition.
         *
         * @return the definition, enabled
         * @throws IllegalStateException when no {@link #enqueue} was set
         * @since 0.1.0
         */
        public RecurringJob build() {
            byte[] bytes = payload;
            String target = queue;
            if (bytes == null || target == null) {
                throw new IllegalStateException("recurring job " + id + " has nothing to enqueue: call enqueue(queue, "
                        + "payload)");
            }
            return new RecurringJob(new RecurringDefinition(id, target, cron, zone.getId(), bytes, maxAttempts,
                    missedTicks == MissedTicks.SKIP, allowOverlap), true, null, null, null, null);
        }
    }
}
