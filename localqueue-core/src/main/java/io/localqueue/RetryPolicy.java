package io.localqueue;

import io.localqueue.internal.time.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How long a failed job waits before its next delivery, and how many deliveries it gets in all: a fixed delay, or an
 * exponential one with a cap and, by default, full jitter (a uniform draw between zero and the exponential value).
 * Policies are values: equal settings compare equal. A handler's {@link RetryLaterException} overrides the next
 * delay only, without jitter or cap, and never extends the budget.
 *
 * @since 0.1.0
 */
public final class RetryPolicy {

    /** The first wait of {@link #exponential(int)}. */
    public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMillis(500);

    /** How much each wait of {@link #exponential(int)} grows. */
    public static final double DEFAULT_MULTIPLIER = 2.0;

    /** The longest wait of {@link #exponential(int)}. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(60);

    private final int maxAttempts;
    private final long initialMillis;
    private final double multiplier;
    private final long maxMillis;
    private final boolean jitter;

    private RetryPolicy(int maxAttempts, long initialMillis, double multiplier, long maxMillis, boolean jitter) {
        this.maxAttempts = maxAttempts;
        this.initialMillis = initialMillis;
        this.multiplier = multiplier;
        this.maxMillis = maxMillis;
        this.jitter = jitter;
    }

    /**
     * Returns a policy that waits {@code delay} before every retry.
     *
     * @param maxAttempts deliveries in all, the first included; at least 1
     * @param delay the wait before each retry, zero or more
     * @return the policy
     * @throws IllegalArgumentException naming the parameter that is out of range
     */
    public static RetryPolicy fixed(int maxAttempts, Duration delay) {
        long millis = Durations.requireNonNegativeMillis(delay, "delay");
        return new RetryPolicy(requireAttempts(maxAttempts), millis, 1.0, millis, false);
    }

    /**
     * Returns an exponential policy with full jitter: 0.5 s doubling per retry, at most 60 s.
     *
     * @param maxAttempts deliveries in all, the first included; at least 1
     * @return the policy
     * @throws IllegalArgumentException when {@code maxAttempts} is under 1
     */
    public static RetryPolicy exponential(int maxAttempts) {
        return exponential(maxAttempts, DEFAULT_INITIAL_DELAY, DEFAULT_MULTIPLIER, DEFAULT_MAX_DELAY, true);
    }

    /**
     * Returns an exponential policy: the wait after delivery {@code a} (from 1) is
     * {@code min(initialDelay × multiplier^(a−1), maxDelay)}, or with jitter a uniform draw between zero and that.
     *
     * @param maxAttempts deliveries in all, the first included; at least 1
     * @param initialDelay the wait after the first delivery, zero or more
     * @param multiplier how much each wait grows; finite and greater than 1
     * @param maxDelay the longest wait; at least {@code initialDelay}
     * @param jitter whether to draw each wait uniformly between zero and its exponential value
     * @return the policy
     * @throws IllegalArgumentException naming the parameter that is out of range
     */
    public static RetryPolicy exponential(int maxAttempts, Duration initialDelay, double multiplier,
                                          Duration maxDelay, boolean jitter) {
        long initial = Durations.requireNonNegativeMillis(initialDelay, "initialDelay");
        long max = Durations.requireNonNegativeMillis(maxDelay, "maxDelay");
        if (!Double.isFinite(multiplier) || multiplier <= 1.0) {
            throw new InvalidArgumentException("multiplier", "multiplier must be finite and greater than 1, got " + multiplier);
        }
        if (max < initial) {
            throw new InvalidArgumentException("maxDelay", "maxDelay (" + maxDelay + ") must not be shorter than initialDelay ("
                    + initialDelay + ")");
        }
        return new RetryPolicy(requireAttempts(maxAttempts), initial, multiplier, max, jitter);
    }

    /**
     * Returns how many deliveries a job gets in all, the first included.
     *
     * @return at least 1
     */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * Returns the wait before the delivery that follows the failed delivery {@code attempt}, drawing the jitter
     * afresh on each call.
     *
     * @param attempt the failed delivery, from 1
     * @return the wait, zero or more
     * @throws IllegalArgumentException when {@code attempt} is under 1
     */
    public Duration delayAfter(int attempt) {
        return delayAfter(attempt, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The wait after {@code attempt}, with the jitter drawn from {@code random} (values in [0, 1)). */
    Duration delayAfter(int attempt, DoubleSupplier random) {
        if (attempt < 1) {
            throw new InvalidArgumentException("attempt", "attempt must be at least 1, got " + attempt);
        }
        // A power too large for a double is infinite, which the cap turns into the cap: no overflow.
        double base = initialMillis == 0 ? 0
                : Math.min(maxMillis, initialMillis * Math.pow(multiplier, attempt - 1));
        double wait = jitter ? random.getAsDouble() * base : base;
        return Duration.ofMillis((long) wait);
    }

    private static int requireAttempts(int maxAttempts) {
        if (maxAttempts < 1) {
            throw new InvalidArgumentException("maxAttempts", "maxAttempts must be at least 1, got " + maxAttempts);
        }
        return maxAttempts;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RetryPolicy that && maxAttempts == that.maxAttempts
                && initialMillis == that.initialMillis && Double.compare(multiplier, that.multiplier) == 0
                && maxMillis == that.maxMillis && jitter == that.jitter;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxAttempts, initialMillis, multiplier, maxMillis, jitter);
    }

    @Override
    public String toString() {
        return multiplier == 1.0 && !jitter
                ? "RetryPolicy[fixed, maxAttempts=" + maxAttempts + ", delay=" + Duration.ofMillis(initialMillis) + "]"
                : "RetryPolicy[exponential, maxAttempts=" + maxAttempts + ", initialDelay="
                        + Duration.ofMillis(initialMillis) + ", multiplier=" + multiplier + ", maxDelay="
                        + Duration.ofMillis(maxMillis) + ", jitter=" + jitter + "]";
    }
}
