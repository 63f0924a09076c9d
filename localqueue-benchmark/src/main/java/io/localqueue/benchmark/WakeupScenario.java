package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;

/**
 * Wake-up latency: one side is blocked in {@code get} on an empty queue, the other puts one job, and each sample is
 * the time from the put's return (its commit) to the return of {@code get}. Also records put start to get return.
 * Sampled one job at a time after a warm-up; subclasses decide where the putting side runs.
 */
public abstract class WakeupScenario extends PerModeScenario {

    /** The report section. */
    public static final String GROUP = "wake-up";

    /** The queue both sides use. */
    static final String QUEUE = "wakeup";

    /**
     * One sample.
     *
     * @param seq the sequence number the getter received
     * @param putStartNanos just before {@code put} was called
     * @param putReturnedNanos just after {@code put} returned
     * @param getReturnedNanos just after {@code get} returned
     */
    protected record Sample(long seq, long putStartNanos, long putReturnedNanos, long getReturnedNanos) {
    }

    /** The putting side. */
    protected interface Waker extends AutoCloseable {
        /**
         * Takes one sample: makes the putting side put job {@code seq} while {@code queue}'s getter is blocked.
         *
         * @param queue the getting side's queue
         * @param seq the job's sequence number
         * @return the sample
         * @throws Exception when the sample cannot be taken
         */
        Sample take(SimpleQueue<BenchMessage> queue, int seq) throws Exception;

        /** Stops the putting side. */
        @Override
        void close();
    }

    /**
     * Starts the putting side.
     *
     * @param context the run
     * @param directory the queue directory
     * @param mode the durability mode
     * @return the waker
     * @throws Exception when it cannot start
     */
    protected abstract Waker start(RunContext context, Path directory, DurabilityMode mode) throws Exception;

    @Override
    protected final ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        int samples = context.profile().wakeupSamples();
        int warmup = Math.max(5, samples / 10);
        long[] wake = new long[samples];
        long[] putToGet = new long[samples];
        int mismatched = 0;
        Path directory = context.newDirectory(name());
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, QUEUE, mode);
             Waker waker = start(context, directory, mode)) {
            for (int i = 0; i < warmup + samples; i++) {
                Sample sample = waker.take(queue, i);
                if (sample.seq() != i) {
                    mismatched++;
                }
                if (i >= warmup) {
                    wake[i - warmup] = sample.getReturnedNanos() - sample.putReturnedNanos();
                    putToGet[i - warmup] = sample.getReturnedNanos() - sample.putStartNanos();
                }
            }
            Validation received = Validation.check(mismatched == 0,
                    mismatched + " of " + (warmup + samples) + " gets returned another job than the one just put");
            return ScenarioResult.builder(name(), GROUP, mode)
                    .count(samples, "samples")
                    .latency(wake, "put returned (committed) to get returned")
                    .detail("putStartToGetReturned", Percentiles.of(putToGet))
                    .detail("warmupSamples", warmup)
                    .validation(received.and(QueueChecks.counts(queue, 0, 0, warmup + samples, 0)))
                    .build();
        }
    }
}
