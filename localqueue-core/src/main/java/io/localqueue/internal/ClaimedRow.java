package io.localqueue.internal;

/**
 * A row just moved to the leased state.
 *
 * @param id the message id
 * @param payload the stored bytes
 * @param attempts the claim count including this claim (one-based)
 * @param receipt the fencing token of this delivery
 * @param leaseUntil the lease expiry, epoch milliseconds
 */
public record ClaimedRow(long id, byte[] payload, int attempts, String receipt, long leaseUntil) {
}
