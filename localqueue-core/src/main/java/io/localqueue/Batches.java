package io.localqueue;

import io.localqueue.internal.consumer.ClaimSource;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ClaimedRow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * How a batch worker takes its batches and splits a batch handler's result into each job's: claims up to the batch
 * size at once, then, for up to the batch wait, more as they arrive, so a trickle of jobs still makes full batches.
 *
 * @param handler the batch work
 * @param size the most jobs in one batch
 * @param waitNanos how long a batch begun waits to fill, zero for no wait
 * @param <T> the payload type
 */
record Batches<T>(BatchJobHandler<T> handler, int size, long waitNanos) {

    /** Claims the next batch, waiting up to {@code pollNanos} for its first job; empty when none came. */
    List<ClaimedRow> claim(QueueEngine engine, long pollNanos, BooleanSupplier stopping) {
        List<ClaimedRow> rows = engine.claim(pollNanos, size, stopping);
        if (rows.isEmpty() || rows.size() == size || waitNanos == 0) {
            return rows;
        }
        List<ClaimedRow> batch = new ArrayList<>(rows);
        long deadline = System.nanoTime() + waitNanos;
        while (batch.size() < size && !stopping.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            List<ClaimedRow> more = engine.claim(left, size - batch.size(), stopping);
            if (more.isEmpty()) {
                break;
            }
            batch.addAll(more);
        }
        return batch;
    }

    /**
     * Returns the source of a batch worker's threads: each takes one batch of one claim at a time, so nothing is
     * claimed ahead and nothing waits to be handed back.
     */
    ClaimSource<List<ClaimedRow>> source(QueueEngine engine, long pollNanos, BooleanSupplier stopping) {
        return new ClaimSource<>() {
            @Override
            public @Nullable List<ClaimedRow> next() {
                List<ClaimedRow> rows = claim(engine, pollNanos, stopping);
                return rows.isEmpty() ? null : rows;
            }

            @Override
            public boolean lastClaimFailed() {
                return false;
            }

            @Override
            public void releaseAll() {
            }

            @Override
            public void wake() {
            }
        };
    }

    /**
     * The error of the job at {@code index} when the handler ended with {@code error}: a {@link BatchFailedException}
     * naming a job of the batch fails that one with its cause; anything else fails every job.
     */
    static @Nullable Throwable errorOf(int index, int batchSize, @Nullable Throwable error) {
        if (error instanceof BatchFailedException failed && failed.index() >= 0 && failed.index() < batchSize) {
            return failed.index() == index ? failed.getCause() : null;
        }
        return error;
    }
}
