package io.localqueue.internal.store;

/**
 * What one claim asks of a queue.
 *
 * @param queue the queue
 * @param now the claim time
 * @param leaseUntil when the new leases end
 * @param limit how many jobs at most, at least one
 * @param lookForExpired false when the caller knows no lease of the queue can have expired since its last look
 * @param budget a delivery budget to write onto every leased row and reclaimed lease, failing (as
 *               {@code retries_exhausted}) a due row whose claims reached it instead of leasing it; 0 keeps each
 *               row's own
 */
public record ClaimRequest(String queue, long now, long leaseUntil, int limit, boolean lookForExpired, int budget) {
}
