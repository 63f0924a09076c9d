package io.localqueue.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeaseExpiryWatchTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final LeaseExpiryWatch watch = new LeaseExpiryWatch(nanos::get);

    @Test
    void theFirstClaimLooks() {
        assertThat(watch.due(5_000)).isTrue();
    }

    @Test
    void aLookThatFoundNothingCoversTheRestOfItsMillisecond() {
        watch.looked(5_000, false);
        nanos.addAndGet(TimeUnit.MICROSECONDS.toNanos(900));

        assertThat(watch.due(5_000)).isFalse();
        assertThat(watch.due(5_001)).as("the clock moved on").isTrue();
        assertThat(watch.due(4_999)).as("the clock went back").isTrue();
    }

    @Test
    void aMillisecondOfRealTimeEndsTheCoverEvenWhenTheClockStandsStill() {
        watch.looked(5_000, false);
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));

        assertThat(watch.due(5_000)).isTrue();
    }

    @Test
    void aLookThatFoundExpiredLeasesCoversNothing() {
        watch.looked(5_000, true);

        assertThat(watch.due(5_000)).isTrue();
    }

    @Test
    void forgettingMakesTheNextClaimLook() {
        watch.looked(5_000, false);
        watch.forget();

        assertThat(watch.due(5_000)).isTrue();
    }
}
