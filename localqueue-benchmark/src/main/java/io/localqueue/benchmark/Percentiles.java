package io.localqueue.benchmark;

import java.util.Arrays;

/**
 * Latency percentiles in integer nanoseconds, by nearest rank: the p-th percentile of n sorted samples is the
 * sample at rank {@code ceil(p * n)}, clamped to {@code [1, n]}. No interpolation, so every figure is a latency that
 * was actually observed.
 *
 * @param count how many samples
 * @param min the smallest sample
 * @param p50 the median
 * @param p95 the 95th percentile
 * @param p99 the 99th percentile
 * @param max the largest sample
 */
public record Percentiles(int count, long min, long p50, long p95, long p99, long max) {

    /**
     * Summarizes samples; the array is not modified.
     *
     * @param samples latencies in nanoseconds, at least one
     * @return the summary
     * @throws IllegalArgumentException when there are no samples
     */
    public static Percentiles of(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("samples must not be empty");
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return new Percentiles(sorted.length, sorted[0], nearestRank(sorted, 0.50), nearestRank(sorted, 0.95),
                nearestRank(sorted, 0.99), sorted[sorted.length - 1]);
    }

    /**
     * Returns the nearest-rank percentile of sorted samples.
     *
     * @param sorted samples in ascending order, at least one
     * @param p the percentile as a fraction, 0 to 1
     * @return the sample at rank {@code ceil(p * n)} clamped to {@code [1, n]}
     */
    public static long nearestRank(long[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("sorted must not be empty");
        }
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("p must be between 0 and 1, got " + p);
        }
        // The small epsilon keeps binary rounding (0.95 * 200 = 190.00000000000003) from skipping a rank.
        int rank = (int) Math.ceil(p * sorted.length - 1e-9);
        rank = Math.max(1, Math.min(sorted.length, rank));
        return sorted[rank - 1];
    }
}
