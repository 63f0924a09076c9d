package io.localqueue.internal.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one committed batch of an execution adds to it: the deliveries it stands for (new or deduplicated, whose
 * descendants join too) and its counts.
 *
 * @param executionId the execution
 * @param generation the checkpoint incarnation after the batch, which the execution comes to own
 * @param deliveryIds the deliveries of the batch
 * @param items source items
 * @param dispatched events routed to a subscription
 * @param unrouted events routed nowhere
 * @param inserted new deliveries
 * @param deduplicated deliveries an existing row stood for
 */
public record ExecutionBatch(String executionId, @Nullable String generation, List<Long> deliveryIds, long items,
                             long dispatched, long unrouted, long inserted, long deduplicated) {
}
