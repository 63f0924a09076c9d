package io.localqueue.bus;

import org.jspecify.annotations.Nullable;

/**
 * How far one ingestion moved its checkpoint: from the cursor it resumed at (null at the source's start) to the
 * cursor of its last committed item; the two are equal when it committed nothing.
 *
 * @param name the checkpoint's name
 * @param startCursor the cursor it started at, or null at the start
 * @param endCursor the cursor it ended at, or null when it never moved past the start
 * @param resumed whether the checkpoint existed when the ingestion started
 * @since 0.1.0
 */
public record CheckpointProgress(String name, @Nullable String startCursor, @Nullable String endCursor,
                                 boolean resumed) {
}
