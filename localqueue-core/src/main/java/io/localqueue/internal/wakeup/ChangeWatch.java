package io.localqueue.internal.wakeup;

import java.util.function.BooleanSupplier;

/**
 * Notices commits that other processes make to a database, for {@link Wakeups} to wake this JVM's waiters.
 */
public interface ChangeWatch extends AutoCloseable {

    /**
     * Watches until {@code wanted} returns false, calling {@code changed} once when it starts (commits may have
     * landed before it looked) and after every commit it notices.
     *
     * @param wanted asked often; false ends the watch
     * @param changed wakes every waiter
     * @throws InterruptedException when the watching thread is interrupted
     * @throws io.localqueue.LocalQueueException when the database cannot be watched; the caller tries again later
     */
    void watch(BooleanSupplier wanted, Runnable changed) throws InterruptedException;

    /** Releases what the watch holds; called once no watch runs any more. */
    @Override
    void close();
}
