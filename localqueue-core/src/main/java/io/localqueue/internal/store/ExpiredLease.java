package io.localqueue.internal.store;

/**
 * A lease that ran out before its delivery was settled, found and taken back by a reclaim.
 *
 * @param id the job
 * @param attempts the deliveries the job has had, the expired one included
 * @param maxAttempts its delivery budget
 * @param deadLettered true when that was its last delivery, so it became a dead letter; false when it is ready again
 */
public record ExpiredLease(long id, int attempts, int maxAttempts, boolean deadLettered) {
}
