package io.localqueue.internal.consumer;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Where a consumer's threads get their work: one leased job at a time from a batched claim, or a whole batch.
 *
 * @param <U> what one thread takes and runs at once
 */
public interface ClaimSource<U> {

    /**
     * Returns the next unit of work for the calling thread, claiming when nothing is in hand.
     *
     * @return the work, or null when nothing arrived within the poll interval or the consumer stops claiming
     */
    @Nullable U next();

    /**
     * Tells whether the last claim failed, so that a thread that only waited for another thread's failed claim does
     * not count the wait as a working database.
     *
     * @return true when the last claim threw
     */
    boolean lastClaimFailed();

    /** Hands back to the queue, uncounted, everything claimed that no thread started. */
    void releaseAll();

    /** Wakes threads waiting for a claim, so that they notice a pause or a stop. */
    void wake();

    /**
     * Records how long a handler ran, for sources that size their claims by it.
     *
     * @param handlerTime the handler's run time
     */
    default void handled(Duration handlerTime) {
    }
}
