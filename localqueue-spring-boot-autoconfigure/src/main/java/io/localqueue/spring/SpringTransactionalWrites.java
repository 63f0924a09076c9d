package io.localqueue.spring;

import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Defers writes to the commit of the Spring-managed transaction of the calling thread, through one
 * {@link DeferredWriteSynchronization} per write, so that each follows the transaction scope it was handed to:
 * an inner {@code REQUIRES_NEW} transaction's writes run at its own commit, and a {@code NESTED} scope's writes
 * are dropped when its savepoint rolls back.
 */
final class SpringTransactionalWrites implements TransactionalWrites {

    @Override
    public boolean deferring() {
        return TransactionSynchronizationManager.isSynchronizationActive()
                && TransactionSynchronizationManager.isActualTransactionActive()
                && !DeferredWriteSynchronization.isWriting();
    }

    @Override
    public void afterCommit(DeferredWrite write) {
        if (!deferring()) {
            throw new IllegalStateException("no active transaction to defer a write to");
        }
        TransactionSynchronizationManager.registerSynchronization(new DeferredWriteSynchronization(write));
    }
}
