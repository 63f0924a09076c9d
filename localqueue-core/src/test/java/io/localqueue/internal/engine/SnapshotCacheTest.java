package io.localqueue.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueStats;
import io.localqueue.TestClock;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.sqlite.SqliteQueueStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cached view of a queue's snapshot: shared by every queue object of the queue on one database, recounted in
 * the background once it is older than the caller allows, at most one recount per queue at a time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SnapshotCacheTest {

    private static final String QUEUE = "observed";
    private static final long MAX_AGE = 5_000;
    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock();
    private HoldingStore store;
    private Database database;
    private QueueEngine queue;

    @BeforeEach
    void open() {
        database = Database.acquire("snapshot-cache-test:" + dir, key -> {
            store = new HoldingStore(SqliteQueueStore.open(FileLocation.prepare(dir).directory()));
            return store;
        });
        queue = engine(DeliveryPolicy.defaults());
    }

    @AfterEach
    void close() {
        queue.close();
        database.close();
    }

    @Test
    void theFirstCachedReadCountsOnTheCallingThreadAndLaterOnesWhileFreshReadNothing() {
        put(2);

        assertThat(queue.stats(MAX_AGE)).isEqualTo(new QueueStats(2, 0, 0, 0));
        put(1);
        clock.advance(Duration.ofMillis(MAX_AGE - 1));

        assertThat(queue.stats(MAX_AGE)).as("the snapshot, not yet too old").isEqualTo(new QueueStats(2, 0, 0, 0));
        assertThat(queue.stats()).as("the exact count").isEqualTo(new QueueStats(3, 0, 0, 0));
        assertThat(store.readOn).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void aStaleSnapshotIsReturnedAtOnceWhileOneRecountRunsInTheBackground() throws Exception {
        put(1);
        queue.stats(MAX_AGE);
        put(1);
        clock.advance(Duration.ofMillis(MAX_AGE));
        Hold hold = store.holdNext(null);

        assertThat(queue.stats(MAX_AGE)).as("the old snapshot, at once").isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(hold.entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.stats(MAX_AGE)).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(queue.diagnostics("json", MAX_AGE).ready()).isEqualTo(1);
        assertThat(store.readOn).as("the first count, then one recount for three stale reads").hasSize(2);
        assertThat(store.readOn.get(1)).startsWith(BackgroundReads.THREAD_NAME);

        hold.release.countDown();
        await().atMost(BOUND).until(() -> queue.stats(MAX_AGE).ready() == 2);
        assertThat(store.readOn).hasSize(2);
    }

    @Test
    void aFailedRecountKeepsTheSnapshotAndTheNextStaleReadTriesAgain() throws Exception {
        put(1);
        queue.stats(MAX_AGE);
        put(1);
        clock.advance(Duration.ofMillis(MAX_AGE));
        Hold hold = store.holdNext(new LocalQueueException("the disk went away"));

        assertThat(queue.stats(MAX_AGE).ready()).isEqualTo(1);
        hold.release.countDown();
        assertThat(hold.done.await(10, TimeUnit.SECONDS)).isTrue();

        await().atMost(BOUND).until(() -> {
            QueueStats stats = queue.stats(MAX_AGE);
            assertThat(stats.ready()).as("the old snapshot or the retry's").isBetween(1L, 2L);
            return stats.ready() == 2;
        });
        assertThat(store.readOn).as("the first count, the failed recount, its retry").hasSize(3);
    }

    @Test
    void everyQueueObjectOfTheQueueSharesTheSnapshotAndDescribesItWithItsOwnSettings() {
        put(3);
        QueueEngine other = engine(new DeliveryPolicy(Duration.ofSeconds(7), 1));
        try {
            assertThat(queue.diagnostics("json", MAX_AGE).leaseSeconds()).isEqualTo(60.0);
            put(1);

            assertThat(other.diagnostics("json", MAX_AGE)).satisfies(diagnostics -> {
                assertThat(diagnostics.ready()).isEqualTo(3);
                assertThat(diagnostics.leaseSeconds()).isEqualTo(7.0);
                assertThat(diagnostics.maxRetries()).isEqualTo(1);
            });
            assertThat(other.stats(MAX_AGE).ready()).isEqualTo(3);
            assertThat(store.readOn).hasSize(1);
        } finally {
            other.close();
        }
    }

    @Test
    void exactDiagnosticsRefreshTheSnapshotTheCachedReadsReturn() {
        put(1);
        queue.stats(MAX_AGE);
        put(1);

        assertThat(queue.diagnostics("json").ready()).isEqualTo(2);
        assertThat(queue.stats(MAX_AGE).ready()).isEqualTo(2);
        assertThat(store.readOn).hasSize(2);
    }

    @Test
    void closingTheDatabaseStopsItsBackgroundThread() throws Exception {
        put(1);
        queue.stats(MAX_AGE);
        clock.advance(Duration.ofMillis(MAX_AGE));
        Hold hold = store.holdNext(null);
        queue.stats(MAX_AGE);
        hold.release.countDown();
        assertThat(hold.done.await(10, TimeUnit.SECONDS)).isTrue();
        String name = store.readOn.get(1);
        assertThat(thread(name)).isPresent();

        queue.close();
        database.close();

        assertThat(thread(name)).isEmpty();
    }

    private QueueEngine engine(DeliveryPolicy delivery) {
        return new QueueEngine(database, QUEUE, delivery, DurabilityMode.RELAXED, 0, clock);
    }

    private void put(int count) {
        List<NewJob> jobs = IntStream.range(0, count)
                .mapToObj(i -> new NewJob("\"job\"".getBytes(StandardCharsets.UTF_8), null)).toList();
        queue.putMany(jobs, 0);
    }

    private static Optional<Thread> thread(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name) && thread.isAlive()).findFirst();
    }

    /** One held snapshot read: the test sees it start, lets it go, and sees it end. */
    static final class Hold {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final @Nullable RuntimeException failure;

        Hold(@Nullable RuntimeException failure) {
            this.failure = failure;
        }
    }

    /** The SQLite store, recording the thread of each snapshot read; the next one can be held, or made to fail. */
    static final class HoldingStore extends ForwardingStore {
        final List<String> readOn = new CopyOnWriteArrayList<>();
        private volatile @Nullable Hold next;

        HoldingStore(QueueStore target) {
            super(target);
        }

        Hold holdNext(@Nullable RuntimeException failure) {
            Hold hold = new Hold(failure);
            next = hold;
            return hold;
        }

        @Override
        public QueueSnapshot snapshot(String queue, Clock clock) {
            readOn.add(Thread.currentThread().getName());
            Hold hold = next;
            next = null;
            if (hold == null) {
                return super.snapshot(queue, clock);
            }
            try {
                hold.entered.countDown();
                hold.release.await(10, TimeUnit.SECONDS);
                if (hold.failure != null) {
                    throw hold.failure;
                }
                return super.snapshot(queue, clock);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new LocalQueueException("interrupted");
            } finally {
                hold.done.countDown();
            }
        }
    }
}
