package io.localqueue.bus;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A checkpoint as stored: the cursor after its last committed item, the fingerprint of the source it follows, how
 * many commits its current incarnation made, and what it committed in all.
 *
 * @param cursor the cursor after the last committed item
 * @param sourceFingerprint the followed source's fingerprint, or null
 * @param version commits of this incarnation, from 1
 * @param itemsCommitted source items committed
 * @param batchesCommitted batches committed
 * @param createdAt when this incarnation was created
 * @param updatedAt when it last committed
 * @since 0.1.0
 */
public record CheckpointState(String cursor, @Nullable String sourceFingerprint, long version, long itemsCommitted,
                              long batchesCommitted, Instant createdAt, Instant updatedAt) {
}
