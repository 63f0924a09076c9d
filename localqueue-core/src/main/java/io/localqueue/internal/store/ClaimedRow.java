package io.localqueue.internal.store;

/**
 * A job just leased.
 *
 * @param id the message id
 * @param payload the stored bytes
 * @param attempts the claim count including this claim (one-based)
 * @param receipt the fencing token of this delivery
 * @param leaseUntil the lease expiry, epoch milliseconds
 */
public record ClaimedRow(long id, byte[] payload, int attempts, String receipt, long leaseUntil) {

    /**
     * Returns the same delivery with a renewed lease.
     *
     * @param newLeaseUntil the new expiry, epoch milliseconds
     * @return the renewed row
     */
    public ClaimedRow renewedUntil(long newLeaseUntil) {
        return new ClaimedRow(id, payload, attempts, receipt, newLeaseUntil);
    }
}
