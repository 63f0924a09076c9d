package io.localqueue.internal.store;

import java.util.Map;

/**
 * A job just leased.
 *
 * @param id the message id
 * @param payload the stored bytes
 * @param attempts the claim count including this claim (one-based)
 * @param receipt the fencing token of this delivery
 * @param leaseUntil the lease expiry, epoch milliseconds
 * @param headers the headers stored with the job, empty for none
 */
public record ClaimedRow(long id, byte[] payload, int attempts, String receipt, long leaseUntil,
                         Map<String, String> headers) {

    /**
     * Returns the same delivery with a renewed lease.
     *
     * @param newLeaseUntil the new expiry, epoch milliseconds
     * @return the renewed row
     */
    public ClaimedRow renewedUntil(long newLeaseUntil) {
        return new ClaimedRow(id, payload, attempts, receipt, newLeaseUntil, headers);
    }
}
