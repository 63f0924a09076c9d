package io.localqueue.internal.store;

/**
 * A recurring job's definition as a store keeps it: what its ticks enqueue, where, on which schedule, and its two
 * policies.
 *
 * @param id the schedule's name, unique on the database
 * @param queue the queue its ticks enqueue into
 * @param cron the cron expression, six fields (seconds first) or a macro such as {@code @hourly}
 * @param zone the time zone the cron is read in, as a {@code ZoneId}'s id
 * @param payload the stored bytes of the job each tick enqueues
 * @param maxAttempts the delivery budget of those jobs
 * @param skipMissed whether ticks missed while no process ran the schedule are skipped, rather than the last of them
 *                   run once
 * @param allowOverlap whether a tick enqueues while the job of the one before is still waiting or running
 */
public record RecurringDefinition(String id, String queue, String cron, String zone, byte[] payload, int maxAttempts,
                                  boolean skipMissed, boolean allowOverlap) {
}
