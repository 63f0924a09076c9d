package io.localqueue.benchmark;

import java.time.Duration;
import java.util.Arrays;

/**
 * Runs one operation repeatedly: a warm-up that is not measured, then the measured region, timing each operation
 * and the region as a whole with {@link System#nanoTime()}. Both phases stop at their operation count or their
 * time budget, whichever comes first, so a slow disk shortens a run instead of stretching it.
 */
public final class OperationLoop {

    /** One operation; {@code index} counts from 0 across warm-up and measured calls. */
    @FunctionalInterface
    public interface Operation {
        /**
         * Runs the operation once.
         *
         * @param index the call number
         * @throws Exception to abort the loop
         */
        void run(int index) throws Exception;
    }

    /**
     * How much to run.
     *
     * @param warmupOperations warm-up calls at most
     * @param warmupTime warm-up time at most
     * @param operations measured calls at most, at least 1
     * @param time measured time at most (at least one call runs)
     */
    public record Limits(int warmupOperations, Duration warmupTime, int operations, Duration time) {
    }

    /**
     * What ran.
     *
     * @param warmups how many warm-up calls ran
     * @param count how many measured calls ran
     * @param requested how many measured calls were asked for
     * @param elapsedNanos from just before the first measured call to just after the last
     * @param latencies the duration of each measured call
     */
    public record Timing(int warmups, int count, int requested, long elapsedNanos, long[] latencies) {

        /**
         * Returns whether the time budget cut the measured region short.
         *
         * @return true when fewer calls ran than were asked for
         */
        public boolean capped() {
            return count < requested;
        }

        /**
         * Returns warm-up and measured calls together.
         *
         * @return the total
         */
        public int total() {
            return warmups + count;
        }
    }

    private OperationLoop() {
    }

    /**
     * Runs the warm-up, then the measured region.
     *
     * @param limits how much to run
     * @param operation the work
     * @return what ran
     * @throws Exception what the operation threw
     */
    public static Timing run(Limits limits, Operation operation) throws Exception {
        int warmups = 0;
        long warmupEnd = System.nanoTime() + limits.warmupTime().toNanos();
        while (warmups < limits.warmupOperations() && System.nanoTime() - warmupEnd < 0) {
            operation.run(warmups++);
        }
        long[] latencies = new long[limits.operations()];
        long start = System.nanoTime();
        long budget = limits.time().toNanos();
        long previous = start;
        int count = 0;
        while (count < limits.operations()) {
            operation.run(warmups + count);
            long now = System.nanoTime();
            latencies[count++] = now - previous;
            previous = now;
            if (now - start >= budget) {
                break;
            }
        }
        return new Timing(warmups, count, limits.operations(), previous - start, Arrays.copyOf(latencies, count));
    }
}
