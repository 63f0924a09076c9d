package io.localqueue.spring;


/**
 * Where a transaction-aware producer's writes go: now, or after the Spring-managed transaction the calling thread
 * runs in commits: the one seam a deferring producer uses ({@link LocalQueueTemplate}'s enqueue; the event bus's
 * dispatch writes at once, as it returns what it stored). spring-tx is always on the class path, since core's write
 * transactions run through it.
 */
interface TransactionalWrites {

    /**
     * Tells whether a write made now would be deferred: the thread runs in an actual Spring-managed transaction
     * with synchronization active, and is not already finishing one.
     *
     * @return true when {@link #afterCommit} applies
     */
    boolean deferring();

    /**
     * Hands a write to the current transaction: it runs once the transaction commits, in the order writes were
     * handed over, and is dropped when the transaction, or a savepoint taken before it was handed over, rolls back.
     *
     * @param write the write
     * @throws IllegalStateException when {@link #deferring()} is false
     */
    void afterCommit(DeferredWrite write);
}
