package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * An event-bus execution as listed: its stored row and runtime row, without counting its deliveries.
 *
 * @param executionId the id, 32 lower-case hexadecimal digits
 * @param sourceName the source definition's name
 * @param checkpointName the checkpoint
 * @param sourceCompletedAt when its source was read to the end, or null
 * @param completedAt when it was last seen complete, or null
 * @param createdAt epoch milliseconds
 * @param updatedAt epoch milliseconds
 * @param itemsCommitted source items committed
 * @param deliveriesInserted new deliveries
 * @param deliveriesDeduplicated deliveries an existing row stood for
 */
public record ExecutionRow(String executionId, String sourceName, String checkpointName,
                           @Nullable Long sourceCompletedAt, @Nullable Long completedAt, long createdAt,
                           long updatedAt, long itemsCommitted, long deliveriesInserted,
                           long deliveriesDeduplicated) {
}
