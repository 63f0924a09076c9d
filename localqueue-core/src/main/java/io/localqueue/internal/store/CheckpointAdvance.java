package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * One move of an ingestion checkpoint, made only if the checkpoint is still the one the caller read.
 *
 * @param bus the bus's name
 * @param name the checkpoint's name
 * @param expected the checkpoint the caller read, or null when it expected none
 * @param cursor the cursor after the last item committed
 * @param fingerprint the source's fingerprint, or null
 * @param items how many source items the batch consumed
 * @param now the time stamped on it
 */
public record CheckpointAdvance(String bus, String name, @Nullable StoredCheckpoint expected, String cursor,
                                @Nullable String fingerprint, long items, long now) {
}
