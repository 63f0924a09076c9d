package io.localqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that runs once per tick of a cron schedule across every instance of the application: each tick
 * is enqueued exactly once (by whichever process fires it first) as a durable job on a queue of the library's, and
 * one instance runs the method with that queue's retries and backoff. The method takes nothing or the tick's
 * {@link java.time.Instant} (a run started by hand gets the time it was asked for). The schedule is stored under its
 * {@link #id()}: {@code localqueue.recurring.<id>.cron}, {@code .zone} and {@code .enabled} override the attributes,
 * and a stored schedule whose method is gone from the application is disabled at start. String attributes accept
 * {@code ${…}} placeholders.
 *
 * <pre>{@code
 * @Recurring(id = "nightly-report", cron = "0 0 2 * * *", zone = "Europe/Paris")
 * void nightlyReport(Instant tick) { reports.build(tick); }
 * }</pre>
 *
 * @since 0.1.0
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Recurring {

    /**
     * The schedule's id, unique on the file or schema: what it is stored, listed and overridden under.
     *
     * @return at most 200 characters, or a placeholder
     */
    String id();

    /**
     * The cron expression, in Spring's six fields with seconds ({@code 0 0 2 * * *}) or a macro such as
     * {@code @hourly}; {@code localqueue.recurring.<id>.cron} overrides it, and may stand in for it when empty.
     *
     * @return a cron expression or placeholder
     */
    String cron() default "";

    /**
     * The time zone the cron is read in; {@code localqueue.recurring.<id>.zone} overrides it.
     *
     * @return a zone id such as {@code Europe/Paris}, or a placeholder; UTC when empty
     */
    String zone() default "";

    /**
     * The queue the ticks are enqueued into and run from, whose delivery settings (retries, backoff, lease) apply;
     * give it to recurring jobs only.
     *
     * @return a queue name or placeholder; {@value #DEFAULT_QUEUE} when empty
     */
    String queue() default "";

    /**
     * What becomes of the ticks missed while no process ran schedules: {@code RUN_ONCE} (the last one runs, once) or
     * {@code SKIP}.
     *
     * @return a policy or placeholder; RUN_ONCE when empty
     */
    String missedTicks() default "";

    /**
     * Whether a tick is enqueued while the previous tick's job still waits or runs ("true"/"false").
     *
     * @return a boolean or placeholder; false when empty
     */
    String allowOverlap() default "";

    /** The queue of recurring jobs that name none. */
    String DEFAULT_QUEUE = "localqueue-recurring";
}
