package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
/**
 * How a source definition ingests: items per transaction and the pending limit per subscription. Frozen for good by
 * the definition's first ingestion or execution, even one that fails; a change after that throws
 * {@link IllegalStateException}.
 *
 * @since 0.1.0
 */
public final class SourceConfig {

    /** The batch size of a definition that sets none. */
    public static final int DEFAULT_BATCH_SIZE = 1_000;

    private int batchSize = DEFAULT_BATCH_SIZE;
    private long maxPending;
    private boolean frozen;

    SourceConfig() {
    }

    /**
     * Sets how many source items each transaction commits, and so how far ahead the source is read.
     *
     * @param batchSize at least 1
     * @return this config
     * @throws IllegalArgumentException when under 1
     * @throws IllegalStateException once frozen
     */
    public synchronized SourceConfig batchSize(int batchSize) {
        requireUnfrozen("batchSize");
        if (batchSize < 1) {
            throw new InvalidArgumentException("batchSize", "batchSize must be at least 1, got " + batchSize);
        }
        this.batchSize = batchSize;
        return this;
    }

    /**
     * Sets the most pending (ready or leased) deliveries a subscription may hold when a batch commits; a batch waits
     * for room, and one that cannot fit even into empty subscriptions is split.
     *
     * @param maxPending at least 1
     * @return this config
     * @throws IllegalArgumentException when under 1
     * @throws IllegalStateException once frozen
     */
    public synchronized SourceConfig maxPending(long maxPending) {
        requireUnfrozen("maxPending");
        if (maxPending < 1) {
            throw new InvalidArgumentException("maxPending", "maxPending must be at least 1, got " + maxPending);
        }
        this.maxPending = maxPending;
        return this;
    }

    /**
     * Returns the batch size.
     *
     * @return at least 1
     */
    public synchronized int batchSize() {
        return batchSize;
    }

    /**
     * Returns the pending limit.
     *
     * @return the limit, or 0 for none
     */
    public synchronized long maxPending() {
        return maxPending;
    }

    /**
     * Tells whether the config is frozen.
     *
     * @return true after the first ingestion or execution
     */
    public synchronized boolean frozen() {
        return frozen;
    }

    synchronized void freeze() {
        frozen = true;
    }

    private void requireUnfrozen(String setting) {
        if (frozen) {
            throw new IllegalStateException("this source definition ingested already; its " + setting
                    + " can no longer change");
        }
    }
}
