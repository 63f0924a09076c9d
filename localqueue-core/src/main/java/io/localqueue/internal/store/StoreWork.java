package io.localqueue.internal.store;

/**
 * The transitions of one write transaction.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface StoreWork<R> {

    /**
     * Calls transitions; throwing rolls the transaction back and reaches the caller of
     * {@link QueueStore#write} unchanged.
     *
     * @param writes the transitions, bound to the transaction
     * @return the result handed back after the commit
     */
    R run(QueueWrites writes);
}
