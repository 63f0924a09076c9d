package io.localqueue.internal.store;

import io.localqueue.DurabilityMode;
import java.util.concurrent.TimeUnit;

/**
 * How a write transaction commits and how long it waits while other writers hold the database.
 *
 * @param transaction what the transaction does, such as {@code enqueue}; names its failpoints
 * @param durability how the commit reaches the disk
 * @param retryBudgetNanos how long to keep trying while another writer holds the lock; zero makes one attempt
 * @param lineWaitNanos how long each attempt may wait for its turn behind other writers of this library; zero
 *                      only takes a turn that is free at once
 */
public record WriteOptions(String transaction, DurabilityMode durability, long retryBudgetNanos, long lineWaitNanos) {

    /** How long a write keeps trying while another process holds the database. */
    public static final long WRITE_BUDGET_NANOS = TimeUnit.SECONDS.toNanos(30);

    /**
     * Returns the options of an ordinary write: it waits for other writers up to the write budget.
     *
     * @param transaction what the transaction does
     * @param durability how the commit reaches the disk
     * @return the options
     */
    public static WriteOptions standard(String transaction, DurabilityMode durability) {
        return new WriteOptions(transaction, durability, WRITE_BUDGET_NANOS, WRITE_BUDGET_NANOS);
    }

    /**
     * Returns the options of a write that never waits for another writer: one attempt, or a busy failure.
     *
     * @param transaction what the transaction does
     * @param durability how the commit reaches the disk
     * @return the options
     */
    public static WriteOptions nowait(String transaction, DurabilityMode durability) {
        return new WriteOptions(transaction, durability, 0, 0);
    }

    /**
     * Returns the options of a write that waits its turn behind the other writers of this library, then makes one
     * attempt that does not wait for a writer outside the line.
     *
     * @param transaction what the transaction does
     * @param durability how the commit reaches the disk
     * @param lineWaitNanos how long to wait for the turn
     * @return the options
     */
    public static WriteOptions onceInLine(String transaction, DurabilityMode durability, long lineWaitNanos) {
        return new WriteOptions(transaction, durability, 0, lineWaitNanos);
    }

    /**
     * Returns the options of a write that waits for other writers at most {@code budgetNanos}.
     *
     * @param transaction what the transaction does
     * @param durability how the commit reaches the disk
     * @param budgetNanos how long to wait, in all
     * @return the options
     */
    public static WriteOptions within(String transaction, DurabilityMode durability, long budgetNanos) {
        return new WriteOptions(transaction, durability, budgetNanos, budgetNanos);
    }
}
