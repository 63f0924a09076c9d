package io.localqueue.internal.recurring;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.support.CronExpression;

/**
 * A cron expression read in a time zone, as {@code @Scheduled} reads it: six fields (seconds first) or a macro such as
 * {@code @hourly}; a local time that a daylight-saving change skips has no tick that day, and one it repeats has a
 * tick at each of its two offsets.
 */
public final class CronSchedule {

    private final CronExpression expression;
    private final ZoneId zone;

    private CronSchedule(CronExpression expression, ZoneId zone) {
        this.expression = expression;
        this.zone = zone;
    }

    /**
     * Reads a cron expression.
     *
     * @param cron the expression
     * @param zone the zone its times are in
     * @return the schedule
     * @throws IllegalArgumentException saying what is wrong with the expression
     */
    public static CronSchedule parse(String cron, ZoneId zone) {
        return new CronSchedule(CronExpression.parse(cron), zone);
    }

    /**
     * Returns the first tick strictly after a time.
     *
     * @param epochMillis the time
     * @return the tick in epoch milliseconds, or null when the expression has none after it
     */
    public @Nullable Long nextAfter(long epochMillis) {
        ZonedDateTime next = expression.next(Instant.ofEpochMilli(epochMillis).atZone(zone));
        return next == null ? null : next.toInstant().toEpochMilli();
    }
}
