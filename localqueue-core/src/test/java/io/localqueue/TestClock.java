package io.localqueue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it, so leases expire and delays pass without sleeping; public so
 * that tests in other packages can drive a queue's time.
 */
public final class TestClock extends Clock {

    /** A fixed, millisecond-aligned starting point. */
    public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    private final AtomicReference<Instant> now;

    public TestClock() {
        this(START);
    }

    public TestClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Moves the clock forward and returns the new time. */
    public Instant advance(Duration amount) {
        return now.updateAndGet(current -> current.plus(amount));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("TestClock is always UTC");
    }
}
