package io.localqueue.internal.time;

import io.localqueue.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Validation and conversion of user-supplied durations into the epoch-millisecond arithmetic the store uses.
 */
public final class Durations {

    /**
     * The largest delay or lease accepted, in milliseconds; the same bound the Python library uses
     * (9,007,199,254,740 seconds), so any timestamp computed from it fits in SQLite's 64-bit integers.
     */
    public static final long MAX_MILLIS = 9_007_199_254_740L * 1000L;

    private static final Duration ONE_MILLISECOND = Duration.ofMillis(1);

    /** A timeout in nanoseconds that never expires. */
    public static final long FOREVER = Long.MAX_VALUE;

    private Durations() {
    }

    /**
     * Returns an instant in epoch milliseconds, refusing one a queue cannot store.
     *
     * @param at the instant, not null
     * @param name the parameter name used in the error message
     * @return the epoch milliseconds
     * @throws IllegalArgumentException when null or outside the epoch milliseconds a {@code long} holds
     */
    public static long epochMillis(@Nullable Instant at, String name) {
        if (at == null) {
            throw new InvalidArgumentException(name, name + " must not be null");
        }
        try {
            return at.toEpochMilli();
        } catch (ArithmeticException tooFar) {
            throw new InvalidArgumentException(name, name + " lies beyond what a queue can store: " + at, tooFar);
        }
    }

    /**
     * Returns a duration of at least one millisecond in whole milliseconds (a sub-millisecond remainder is dropped).
     *
     * @param value the duration to check
     * @param name the parameter name used in the error message
     * @return the value in milliseconds, at least 1
     * @throws IllegalArgumentException when null, under one millisecond, negative or above {@link #MAX_MILLIS}
     */
    public static long requirePositiveMillis(@Nullable Duration value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name, name + " must not be null");
        }
        if (value.isZero() || value.isNegative()) {
            throw new InvalidArgumentException(name, name + " must be positive, got " + value);
        }
        if (value.compareTo(ONE_MILLISECOND) < 0) {
            throw new InvalidArgumentException(name, name + " must be at least 1 ms (the stored resolution), got " + value);
        }
        return checkedMillis(value, name);
    }

    /**
     * Returns a zero-or-positive duration in whole milliseconds (sub-millisecond parts are dropped).
     *
     * @param value the duration to check
     * @param name the parameter name used in the error message
     * @return the value in milliseconds
     * @throws IllegalArgumentException when null, negative or above {@link #MAX_MILLIS}
     */
    public static long requireNonNegativeMillis(@Nullable Duration value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name, name + " must not be null");
        }
        if (value.isNegative()) {
            throw new InvalidArgumentException(name, name + " must not be negative, got " + value);
        }
        return checkedMillis(value, name);
    }

    /**
     * Converts a wait timeout to nanoseconds, saturating very long timeouts to {@link #FOREVER}.
     *
     * @param value the timeout
     * @param name the parameter name used in the error message
     * @return nanoseconds to wait, zero for a single attempt
     * @throws IllegalArgumentException when null or negative
     */
    public static long timeoutNanos(@Nullable Duration value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name, name + " must not be null");
        }
        if (value.isNegative()) {
            throw new InvalidArgumentException(name, name + " must not be negative, got " + value);
        }
        try {
            return value.toNanos();
        } catch (ArithmeticException tooLong) {
            return FOREVER;
        }
    }

    /**
     * Adds a duration to a timestamp, refusing results SQLite cannot store.
     *
     * @param epochMillis the base timestamp
     * @param millis the amount to add, already validated
     * @param name the parameter name used in the error message
     * @return the sum
     */
    public static long addToTimestamp(long epochMillis, long millis, String name) {
        try {
            return Math.addExact(epochMillis, millis);
        } catch (ArithmeticException overflow) {
            throw new InvalidArgumentException(name, name + " exceeds the supported maximum", overflow);
        }
    }

    private static long checkedMillis(Duration value, String name) {
        long millis;
        try {
            millis = value.toMillis();
        } catch (ArithmeticException overflow) {
            throw new InvalidArgumentException(name, name + " exceeds the supported maximum of " + MAX_MILLIS + " ms", overflow);
        }
        if (millis > MAX_MILLIS) {
            throw new InvalidArgumentException(name, name + " exceeds the supported maximum of " + MAX_MILLIS + " ms, got " + value);
        }
        return millis;
    }
}
