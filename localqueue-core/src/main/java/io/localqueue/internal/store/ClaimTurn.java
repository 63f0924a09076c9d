package io.localqueue.internal.store;

import java.util.function.BooleanSupplier;

/**
 * This process's turn to make blocking claims from one queue, among the processes that consume it. While one process
 * holds the turn, the others sleep instead of waking, looking and racing for the write lock on every commit; a turn
 * only orders claimers, so a store whose claims need no such order grants it at once.
 */
public interface ClaimTurn {

    /** A turn that is always granted: for stores and claims that need no order. */
    ClaimTurn ALWAYS = new ClaimTurn() {
        @Override
        public boolean enter(long waitNanos, BooleanSupplier cancelled) {
            return true;
        }

        @Override
        public void exit() {
        }
    };

    /**
     * Waits for the turn; a thread that got it calls {@link #exit()} when its claim returned.
     *
     * @param waitNanos how long to wait
     * @param cancelled checked while waiting; true ends the wait
     * @return false when the wait ran out or was cancelled without the turn
     * @throws InterruptedException when the thread was interrupted while waiting
     */
    boolean enter(long waitNanos, BooleanSupplier cancelled) throws InterruptedException;

    /** Ends the calling thread's turn; the next claimer of this process or of another one may take it. */
    void exit();
}
