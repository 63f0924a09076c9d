package io.localqueue.bus;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What one ingestion committed: items read from the source, events stored or left unrouted, their deliveries new
 * or deduplicated, and the transactions it took (a batch split to fit a pending limit counts each half).
 *
 * @param itemsRead source items read and committed
 * @param eventsDispatched events that at least one subscription routes
 * @param eventsUnrouted events no subscription routes (stored nowhere)
 * @param deliveriesInserted new deliveries
 * @param deliveriesDeduplicated deliveries an existing row stood for (same event id or identity)
 * @param batchesCommitted transactions committed
 * @param elapsed how long the ingestion ran
 * @param checkpoint where the checkpoint started and ended, or null without one
 * @since 0.1.0
 */
public record IngestionResult(long itemsRead, long eventsDispatched, long eventsUnrouted, long deliveriesInserted,
                              long deliveriesDeduplicated, long batchesCommitted, Duration elapsed,
                              @Nullable CheckpointProgress checkpoint) {

    /**
     * Returns every delivery the ingestion stands for, new or deduplicated.
     *
     * @return inserted plus deduplicated
     */
    public long deliveriesTotal() {
        return deliveriesInserted + deliveriesDeduplicated;
    }
}
