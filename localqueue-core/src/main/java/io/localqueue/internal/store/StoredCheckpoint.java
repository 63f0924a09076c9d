package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * An ingestion checkpoint as stored: where its source stands and the tokens that fence concurrent ingesters (a
 * generation, new each time the checkpoint is created, and a version, one higher with every commit).
 *
 * @param cursor the cursor after the last committed item
 * @param sourceFingerprint the fingerprint of the source it follows, or null
 * @param generation the incarnation token
 * @param version the commit count of this incarnation, from 1
 * @param itemsCommitted source items committed in all
 * @param batchesCommitted batches committed in all
 * @param createdAt epoch milliseconds
 * @param updatedAt epoch milliseconds
 */
public record StoredCheckpoint(String cursor, @Nullable String sourceFingerprint, String generation, long version,
                               long itemsCommitted, long batchesCommitted, long createdAt, long updatedAt) {
}
