package io.localqueue.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it forward, so that a retry delayed by a backoff, or a lease, passes
 * without waiting; it starts at the moment it was made, to the millisecond. Thread-safe.
 *
 * @since 0.1.0
 */
public final class TestClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    /**
     * Creates a clock standing at the current time, to the millisecond, in UTC.
     *
     * @since 0.1.0
     */
    public TestClock() {
        this(new AtomicReference<>(Instant.now().truncatedTo(ChronoUnit.MILLIS)), ZoneOffset.UTC);
    }

    private TestClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /**
     * Moves the clock forward; jobs that fall due by the new time can be claimed at once, by {@code drain} or an
     * inline put, and at their next poll by listeners on their own threads.
     *
     * @param amount how far, zero or more
     * @return the new time
     * @throws IllegalArgumentException when {@code amount} is negative: a queue's clock never goes back
     * @since 0.1.0
     */
    public Instant advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("a queue's clock never goes back; amount was " + amount);
        }
        return now.updateAndGet(current -> current.plus(amount));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /**
     * Returns a clock in another zone that moves with this one.
     *
     * @param zone the zone
     * @return a view of this clock
     */
    @Override
    public Clock withZone(ZoneId zone) {
        return new TestClock(now, zone);
    }

    @Override
    public String toString() {
        return "TestClock[" + now.get() + "]";
    }
}
