package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueOptions;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Wake-up latency: one side is blocked in {@code get} on an empty queue, the other puts one job, and each sample is
 * the time from the put's return (its commit) to the return of {@code get}; or, for a job put for a few milliseconds
 * later, its lateness: from its due time to the return of {@code get}. Also records put start to get return.
 * Sampled one job at a time after a warm-up; subclasses decide where the putting side runs.
 */
public abstract class WakeupScenario extends PerModeScenario {

    /** The shortest delay of a delayed put, long enough for the getter to be waiting for the due time. */
    static final long MIN_DELAY_MILLIS = 20;

    /** The longest delay of a delayed put. */
    static final long MAX_DELAY_MILLIS = 40;

    private final boolean delayed;

    /**
     * A scenario of plain puts, or of puts for a few milliseconds later.
     *
     * @param delayed whether each job is put {@value #MIN_DELAY_MILLIS} to {@value #MAX_DELAY_MILLIS} ms ahead
     */
    protected WakeupScenario(boolean delayed) {
        this.delayed = delayed;
    }

    /** Returns whether each job is put for a few milliseconds later. */
    protected boolean delayed() {
        return delayed;
    }

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
     * @param dueNanos when the job fell due, on the same clock: its put's return when put without delay
     */
    protected record Sample(long seq, long putStartNanos, long putReturnedNanos, long getReturnedNanos,
                            long dueNanos) {
    }

    /**
     * Puts one job, for a random few milliseconds later when the scenario is delayed, and reads the clocks.
     *
     * @param queue the putting side's queue
     * @param seq the job's sequence number
     * @param delayed whether to put it for later
     * @return put start, put return and due time, in {@code System.nanoTime()}
     */
    static long[] put(SimpleQueue<BenchMessage> queue, long seq, boolean delayed) {
        if (!delayed) {
            long start = System.nanoTime();
            queue.put(BenchMessage.of(seq, start));
            long returned = System.nanoTime();
            return new long[] {start, returned, returned};
        }
        Instant wall = Instant.now();
        long start = System.nanoTime();
        Instant due = wall.plusMillis(ThreadLocalRandom.current().nextLong(MIN_DELAY_MILLIS, MAX_DELAY_MILLIS + 1))
                .truncatedTo(ChronoUnit.MILLIS);
        queue.put(BenchMessage.of(seq, start), null, EnqueueOptions.defaults().runAt(due));
        long returned = System.nanoTime();
        return new long[] {start, returned, start + Duration.between(wall, due).toNanos()};
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
                    wake[i - warmup] = sample.getReturnedNanos() - sample.dueNanos();
                    putToGet[i - warmup] = sample.getReturnedNanos() - sample.putStartNanos();
                }
            }
            Validation received = Validation.check(mismatched == 0,
                    mismatched + " of " + (warmup + samples) + " gets returned another job than the one just put");
            return ScenarioResult.builder(name(), GROUP, mode)
                    .count(samples, "samples")
                    .latency(wake, delayed ? "due time to get returned (lateness)"
                            : "put returned (committed) to get returned")
                    .detail("putStartToGetReturned", Percentiles.of(putToGet))
                    .detail("warmupSamples", warmup)
                    .detail("delayMillis", delayed ? MIN_DELAY_MILLIS + "-" + MAX_DELAY_MILLIS : "0")
                    .validation(received.and(QueueChecks.counts(queue, 0, 0, warmup + samples, 0)))
                    .build();
        }
    }
}
