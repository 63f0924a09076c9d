package io.localqueue.internal.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one claim transition did.
 *
 * @param rows the leased rows in claim order (due time, then id)
 * @param reclaimed the expired leases moved back to ready or to failed first
 * @param hold why due jobs were left, when a limit of the queue's left some; null otherwise
 */
public record ClaimBatch(List<ClaimedRow> rows, List<ExpiredLease> reclaimed, @Nullable ClaimHold hold) {

    /**
     * A claim that no limit held back.
     *
     * @param rows the leased rows in claim order
     * @param reclaimed the expired leases moved back first
     */
    public ClaimBatch(List<ClaimedRow> rows, List<ExpiredLease> reclaimed) {
        this(rows, reclaimed, null);
    }
}
