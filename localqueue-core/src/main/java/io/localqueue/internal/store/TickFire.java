package io.localqueue.internal.store;

/**
 * One tick of a recurring job, to fire in one transaction.
 *
 * @param id the recurring job
 * @param tickAt the tick's time, epoch milliseconds (for a tick run by hand, the time it was asked for)
 * @param kind what to do with it
 * @param version the definition's version the tick was computed from; a scheduled or missed tick of another version
 *                does nothing
 * @param now the transaction's time
 */
public record TickFire(String id, long tickAt, Kind kind, long version, long now) {

    /** What a tick does. */
    public enum Kind {
        /** A tick of the schedule: enqueues its job unless the one before is still waiting or running. */
        SCHEDULED,
        /** A tick missed while no process ran the schedule, under the skip policy: recorded and passed over. */
        MISSED,
        /** A tick run by hand: enqueues its job, and leaves the schedule's position as it is. */
        MANUAL
    }
}
