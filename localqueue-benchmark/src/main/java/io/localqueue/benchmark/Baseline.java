package io.localqueue.benchmark;

import org.jspecify.annotations.Nullable;

/**
 * A scenario's raw JDBC limit in the same durability mode, and how close the engine came to it.
 *
 * @param raw the name of the raw workload the scenario is compared with
 * @param rawThroughputPerSecond the raw workload's throughput, or null when it did not run or failed
 * @param ratio the scenario's throughput divided by the raw throughput, or null when either is missing
 */
public record Baseline(String raw, @Nullable Double rawThroughputPerSecond, @Nullable Double ratio) {

    /**
     * A baseline whose figures are not known yet.
     *
     * @param raw the raw workload's name
     * @return the baseline
     */
    public static Baseline of(String raw) {
        return new Baseline(raw, null, null);
    }
}
