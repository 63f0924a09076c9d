package io.localqueue.spring;

/**
 * A write a producer handed to the current transaction, to run once it commits: what to write, and whom to tell
 * what became of it. Exactly one of the three methods is called, on the thread that ends the transaction.
 */
interface DeferredWrite {

    /**
     * Performs the write, after the transaction committed.
     *
     * @throws RuntimeException when the write fails; {@link #failed} is called with it
     */
    void write();

    /** Tells that the transaction, or the savepoint the write was handed over after, rolled back. */
    void rolledBack();

    /**
     * Tells that the transaction committed but the write could not be made; nothing can undo that commit.
     *
     * @param failure why
     */
    void failed(RuntimeException failure);
}
