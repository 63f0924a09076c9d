package io.localqueue.internal.store;

/**
 * A lease renewal of one delivery, fenced like a settlement.
 *
 * @param queue the delivery's queue
 * @param id the message id
 * @param receipt the delivery's receipt
 * @param now the renewal time: the lease must end after it
 * @param leaseUntil the new lease end
 */
public record Renewal(String queue, long id, String receipt, long now, long leaseUntil) {
}
