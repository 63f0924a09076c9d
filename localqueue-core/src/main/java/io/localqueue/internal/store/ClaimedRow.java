package io.localqueue.internal.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job just leased.
 *
 * @param id the message id
 * @param payload the stored bytes
 * @param attempts the claim count including this claim (one-based)
 * @param receipt the fencing token of this delivery
 * @param leaseUntil the lease expiry, epoch milliseconds
 * @param headers the headers stored with the job, empty for none
 * @param dueAt when this delivery fell due, epoch milliseconds
 * @param claimedAt when it was claimed, epoch milliseconds
 * @param priority the job's priority; 0 for the default
 * @param concurrencyKey the job's concurrency key, or null
 */
public record ClaimedRow(long id, byte[] payload, int attempts, String receipt, long leaseUntil,
                         Map<String, String> headers, long dueAt, long claimedAt, int priority,
                         @Nullable String concurrencyKey) {

    /**
     * A job of the default priority and no key, whose due and claim times are not known (both 0).
     *
     * @param id the message id
     * @param payload the stored bytes
     * @param attempts the claim count including this claim (one-based)
     * @param receipt the fencing token of this delivery
     * @param leaseUntil the lease expiry, epoch milliseconds
     * @param headers the headers stored with the job, empty for none
     */
    public ClaimedRow(long id, byte[] payload, int attempts, String receipt, long leaseUntil,
                      Map<String, String> headers) {
        this(id, payload, attempts, receipt, leaseUntil, headers, 0, 0, 0, null);
    }

    /**
     * Returns the same delivery with a renewed lease.
     *
     * @param newLeaseUntil the new expiry, epoch milliseconds
     * @return the renewed row
     */
    public ClaimedRow renewedUntil(long newLeaseUntil) {
        return new ClaimedRow(id, payload, attempts, receipt, newLeaseUntil, headers, dueAt, claimedAt, priority,
                concurrencyKey);
    }
}
