package io.localqueue.model;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that stands still until the test moves it; every zone view shares the same time.
 */
final class ModelClock extends Clock {

    private final AtomicLong millis;
    private final ZoneId zone;

    ModelClock(Instant start) {
        this(new AtomicLong(start.toEpochMilli()), ZoneOffset.UTC);
    }

    private ModelClock(AtomicLong millis, ZoneId zone) {
        this.millis = millis;
        this.zone = zone;
    }

    void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("the model clock never goes back, got " + step);
        }
        millis.addAndGet(step.toMillis());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return new ModelClock(millis, newZone);
    }

    @Override
    public String toString() {
        return "ModelClock[" + instant() + "]";
    }
}
