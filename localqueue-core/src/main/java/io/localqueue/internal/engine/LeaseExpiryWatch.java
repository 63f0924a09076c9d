package io.localqueue.internal.engine;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Decides when a claim must look for expired leases. A look at clock millisecond {@code m} that finds no lease with
 * {@code lease_until <= m} stays true for every later claim in that same millisecond, since a lease taken or
 * extended meanwhile ends at least a millisecond later; so claims repeat the look only when the clock has moved on,
 * when a millisecond of real time has passed (a fixed test clock, or rows changed by hand), after a look that found
 * expired leases, or when forced because a read saw one.
 */
final class LeaseExpiryWatch {

    private static final long REAL_TIME_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final LongSupplier nanoTime;
    private volatile long lookedAtMillis = Long.MIN_VALUE;
    private volatile long lookedAtNanos;

    LeaseExpiryWatch() {
        this(System::nanoTime);
    }

    LeaseExpiryWatch(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Whether a claim at clock time {@code now} must look for expired leases. */
    boolean due(long now) {
        return now != lookedAtMillis || nanoTime.getAsLong() - lookedAtNanos >= REAL_TIME_LIMIT_NANOS;
    }

    /** Records a look at clock time {@code now}; one that found expired leases is not trusted for later claims. */
    void looked(long now, boolean foundExpired) {
        lookedAtNanos = nanoTime.getAsLong();
        lookedAtMillis = foundExpired ? Long.MIN_VALUE : now;
    }

    /** Makes the next claim look, whatever the time. */
    void forget() {
        lookedAtMillis = Long.MIN_VALUE;
    }
}
