package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * A lease that ran out before its delivery was settled, found and taken back by a reclaim.
 *
 * @param id the job
 * @param attempts the deliveries the job has had, the expired one included
 * @param maxAttempts its delivery budget
 * @param deadLettered true when that was its last delivery, so it became a dead letter; false when it is ready again
 * @param lastError the job's last error afterwards (for a dead letter, the one saying its lease expired), or null
 */
public record ExpiredLease(long id, int attempts, int maxAttempts, boolean deadLettered, @Nullable String lastError) {
}
