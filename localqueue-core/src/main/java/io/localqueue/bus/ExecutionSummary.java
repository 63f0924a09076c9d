package io.localqueue.bus;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An execution as the file stores it, read without counting its deliveries: what {@link EventBus#executions()}
 * lists, so that an operator finds the one to {@link EventBus#deleteExecution(UUID) delete}. {@code completedAt} is
 * set by the {@code execute} call that saw it complete (or by a deletion that finds it complete), and cleared when
 * one of its dead letters is replayed.
 *
 * @param executionId the execution's id
 * @param sourceName the source definition's name
 * @param checkpointName the checkpoint's name
 * @param sourceCompletedAt when its source was read to the end, or null
 * @param completedAt when it was seen complete, or null
 * @param createdAt when it began
 * @param updatedAt when it last changed
 * @param itemsCommitted source items committed
 * @param deliveriesInserted new deliveries of the source's events
 * @param deliveriesDeduplicated deliveries an existing row stood for
 * @since 0.1.0
 */
public record ExecutionSummary(UUID executionId, String sourceName, String checkpointName,
                               @Nullable Instant sourceCompletedAt, @Nullable Instant completedAt, Instant createdAt,
                               Instant updatedAt, long itemsCommitted, long deliveriesInserted,
                               long deliveriesDeduplicated) {

    /**
     * Tells whether the execution was seen complete; one that completed while no {@code execute} call waited for it
     * reads false until a call (or a deletion) looks at it.
     *
     * @return true when {@code completedAt} is set
     * @since 0.1.0
     */
    public boolean completed() {
        return completedAt != null;
    }


    /** Returns the instant of stored epoch milliseconds, or null. */
    static @Nullable Instant instant(@Nullable Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }
}
