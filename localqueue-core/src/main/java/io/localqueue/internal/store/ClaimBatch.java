package io.localqueue.internal.store;

import java.util.List;

/**
 * What one claim transition did.
 *
 * @param rows the leased rows in claim order (due time, then id)
 * @param reclaimed the expired leases moved back to ready or to failed first
 */
public record ClaimBatch(List<ClaimedRow> rows, List<ExpiredLease> reclaimed) {
}
