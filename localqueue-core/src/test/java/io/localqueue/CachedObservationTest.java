package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link SimpleQueue#stats(Duration)} and {@link SimpleQueue#diagnostics(Duration)}: the last snapshot while it is
 * young enough, recounted in the background once it is not, shared by the queue objects of one database.
 */
class CachedObservationTest extends QueueTestBase {

    private static final Duration MAX_AGE = Duration.ofSeconds(5);
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void cachedCountsAreTheLastSnapshotWhileItIsYoungerThanMaxAgeAndTheExactCountIsAlwaysCurrent() {
        SimpleQueue<Object> queue = queue();
        queue.put("one");

        assertThat(queue.stats(MAX_AGE)).isEqualTo(new QueueStats(1, 0, 0, 0));
        queue.put("two");
        clock.advance(MAX_AGE.minusMillis(1));

        assertThat(queue.stats(MAX_AGE)).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(queue.diagnostics(MAX_AGE).ready()).isEqualTo(1);
        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
    }

    @Test
    void aSnapshotAsOldAsMaxAgeIsReturnedOnceMoreAndThenReplacedByItsRecount() {
        SimpleQueue<Object> queue = queue();
        queue.put("one");
        queue.stats(MAX_AGE);
        queue.put("two");
        clock.advance(MAX_AGE);

        assertThat(queue.stats(MAX_AGE).ready()).as("the old snapshot, at once").isIn(1L, 2L);
        await().atMost(BOUND).until(() -> queue.stats(MAX_AGE).ready() == 2);
        assertThat(queue.diagnostics(MAX_AGE).observedAt()).isEqualTo(TestClock.START.plus(MAX_AGE));
    }

    @Test
    void cachedDiagnosticsSayWhenTheirSnapshotWasTakenAndMeasureAgesThen() {
        SimpleQueue<Object> queue = queue();
        queue.put("waiting");
        clock.advance(Duration.ofSeconds(3));
        QueueDiagnostics taken = queue.diagnostics(MAX_AGE);
        clock.advance(Duration.ofSeconds(4));

        QueueDiagnostics cached = queue.diagnostics(MAX_AGE);

        assertThat(cached.observedAt()).isEqualTo(TestClock.START.plusSeconds(3)).isEqualTo(taken.observedAt());
        assertThat(cached.oldestAvailableAgeSeconds()).isEqualTo(3.0);
    }

    @Test
    void queueObjectsOfOneQueueOnOneDatabaseShareTheSnapshot() {
        SimpleQueue<Object> first = open(SimpleQueue.builder(database()).name("shared").clock(clock));
        SimpleQueue<String> second = open(SimpleQueue.builder(database(), String.class).name("shared").clock(clock)
                .delivery(new DeliveryPolicy(Duration.ofSeconds(9), 2)));
        first.put("one");
        first.stats(MAX_AGE);
        first.put("two");

        assertThat(second.stats(MAX_AGE).ready()).isEqualTo(1);
        assertThat(second.diagnostics(MAX_AGE).leaseSeconds()).isEqualTo(9.0);
        assertThat(second.diagnostics().ready()).isEqualTo(2);
        assertThat(first.stats(MAX_AGE).ready()).as("refreshed by the exact diagnostics").isEqualTo(2);
    }

    @Test
    void maxAgeMustBeAPositiveDuration() {
        SimpleQueue<Object> queue = queue();
        for (Duration refused : new Duration[] {null, Duration.ZERO, Duration.ofMillis(-1), Duration.ofNanos(999)}) {
            for (Consumer<Duration> read : List.<Consumer<Duration>>of(queue::stats, queue::diagnostics)) {
                assertThatThrownBy(() -> read.accept(refused)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("maxAge");
            }
        }
    }

    @Test
    void aClosedQueueRefusesCachedReads() {
        SimpleQueue<Object> queue = queue();
        queue.stats(MAX_AGE);
        queue.close();

        assertThatThrownBy(() -> queue.stats(MAX_AGE)).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> queue.diagnostics(MAX_AGE)).isInstanceOf(QueueClosedException.class);
    }

    private SimpleQueue<Object> queue() {
        return open(SimpleQueue.builder(database()).name("observed").clock(clock));
    }
}
