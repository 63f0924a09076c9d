package io.localqueue.benchmark;

import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.WorkerObserver;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Passes each acknowledgement a worker (or a {@code @QueueListener}) makes to a sink; the worker calls it once the
 * outcome is committed, so its clock reading is the acknowledgement's commit time.
 */
public final class AckObserver implements WorkerObserver {

    /** Where acknowledgements go. */
    @FunctionalInterface
    public interface Sink {
        /**
         * Takes one acknowledgement.
         *
         * @param seq the job's sequence number
         * @param sentNanos when it was produced
         * @param ackNanos when its acknowledgement committed
         */
        void acknowledged(long seq, long sentNanos, long ackNanos);
    }

    private final Sink sink;

    /**
     * Creates the observer.
     *
     * @param sink where acknowledgements go
     */
    public AckObserver(Sink sink) {
        this.sink = sink;
    }

    @Override
    public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
        if (outcome == JobOutcome.ACKED && job.data() instanceof BenchMessage message) {
            sink.acknowledged(message.seq(), message.sentNanos(), System.nanoTime());
        }
    }
}
