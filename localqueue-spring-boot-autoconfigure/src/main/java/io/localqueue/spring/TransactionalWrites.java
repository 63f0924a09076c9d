package io.localqueue.spring;

import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Where a transaction-aware producer's writes go: now, or after the Spring-managed transaction the calling thread
 * runs in commits. The one seam every producer uses, {@link LocalQueueTemplate}'s enqueue today and the event bus's
 * dispatch once it exists, so that all of them defer alike. Without spring-tx on the class path nothing is ever
 * deferred.
 */
interface TransactionalWrites {

    /** The writes of an application without spring-tx: none is ever deferred. */
    TransactionalWrites NONE = new TransactionalWrites() {
        @Override
        public boolean deferring() {
            return false;
        }

        @Override
        public void afterCommit(DeferredWrite write) {
            throw new IllegalStateException("no transaction to defer a write to");
        }
    };

    /**
     * Returns the writes of the class path: Spring's transactions when spring-tx is present, else {@link #NONE}.
     *
     * @param classLoader the class loader to look in, or null for the default one
     * @return the writes
     */
    static TransactionalWrites detect(@Nullable ClassLoader classLoader) {
        return ClassUtils.isPresent(SpringTransactionalWrites.MANAGER, classLoader) ? new SpringTransactionalWrites()
                : NONE;
    }

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
