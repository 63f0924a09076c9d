package io.localqueue.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.QueueStore;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A queue's claims look for ended holders at most once a second, however many claims there are. */
class HolderWatchTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final AtomicInteger looks = new AtomicInteger();
    private final QueueStore store = (QueueStore) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {QueueStore.class}, (proxy, method, arguments) -> {
                assertThat(method.getName()).isEqualTo("endedHolders");
                assertThat(arguments).containsExactly("q");
                looks.incrementAndGet();
                return List.of("0001000000000002");
            });
    private final HolderWatch watch = new HolderWatch(store, "q", nanos::get);

    @Test
    void theFirstClaimLooksAndLaterOnesOnlyOnceTheIntervalPassed() {
        assertThat(watch.endedIfDue()).containsExactly("0001000000000002");
        for (int i = 0; i < 1_000; i++) {
            nanos.addAndGet(TimeUnit.MICROSECONDS.toNanos(999));
            assertThat(watch.endedIfDue()).isEmpty();
        }
        assertThat(looks).hasValue(1);
        assertThat(watch.millisUntilDue()).isBetween(1L, 2L);

        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(watch.millisUntilDue()).isLessThanOrEqualTo(1L);
        assertThat(watch.endedIfDue()).hasSize(1);
        assertThat(looks).hasValue(2);
        assertThat(watch.millisUntilDue()).isEqualTo(TimeUnit.NANOSECONDS.toMillis(HolderWatch.CHECK_NANOS) + 1);
    }
}
