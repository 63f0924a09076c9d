package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrencyTest extends QueueTestBase {

    private static final int THREADS = 4;

    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void tearDown() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void fourThreadsSharingOneQueueClaimEachJobExactlyOnce() throws Exception {
        SimpleQueue<Object> queue = queue();
        List<Long> ids = queue.putMany(IntStream.range(0, 200).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());

        Map<Long, AtomicInteger> claims = drainConcurrently(List.of(queue, queue, queue, queue));

        assertThat(claims.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(claims.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 200, 0));
    }

    @Test
    void fourQueueObjectsOnOneFileClaimEachJobExactlyOnce() throws Exception {
        List<SimpleQueue<Object>> queues = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            queues.add(queue());
        }
        List<Long> ids = queues.get(0).putMany(IntStream.range(0, 200)
                .mapToObj(i -> EnqueueItem.<Object>of("job " + i)).toList());

        Map<Long, AtomicInteger> claims = drainConcurrently(queues);

        assertThat(claims.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(claims.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(queues.get(3).stats()).isEqualTo(new QueueStats(0, 0, 200, 0));
    }

    @Test
    void blockedGetReturnsWhenAnotherThreadPuts() throws Exception {
        SimpleQueue<Object> queue = queue();
        Threads.Call<Job<Object>> blocked = Threads.start("consumer", queue::get).awaitParked();
        assertThat(blocked.result()).isNotDone();

        long id = queue.put("wake up");

        assertThat(blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS).id()).isEqualTo(id);
    }

    @Test
    void blockedGetReturnsWhenAPutArrivesThroughAnotherQueueObject() throws Exception {
        SimpleQueue<Object> consumer = queue();
        SimpleQueue<Object> producer = queue();
        Threads.Call<Job<Object>> blocked = Threads.start("consumer",
                () -> consumer.get(Duration.ofMinutes(5))).awaitParked();

        long id = producer.put("wake up");

        assertThat(blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS).id()).isEqualTo(id);
    }

    @Test
    void blockedGetIgnoresPutsToOtherQueues() throws Exception {
        SimpleQueue<Object> queue = queue();
        SimpleQueue<Object> other = open(SimpleQueue.builder(database()).name("other"));
        Threads.Call<Job<Object>> blocked = Threads.start("consumer", queue::get).awaitParked();

        other.put("not for you");
        long id = queue.put("for you");

        assertThat(blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS).id()).isEqualTo(id);
        assertThat(other.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void closingOneQueueObjectLeavesAnotherObjectsBlockedGetWaiting() throws Exception {
        SimpleQueue<Object> waiting = queue();
        SimpleQueue<Object> closing = queue();
        Threads.Call<Job<Object>> blocked = Threads.start("consumer", waiting::get).awaitParked();

        closing.close();
        long id = queue().put("after close");

        assertThat(blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS).id()).isEqualTo(id);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void getNowaitOnAnEmptyQueueDoesNotWaitForAnotherConnectionsWriteLock() throws Exception {
        SimpleQueue<Object> queue = queue();

        try (Connection locker = writeLockHolder()) {
            assertTimeoutPreemptively(Duration.ofSeconds(3), () -> {
                assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
                assertThatThrownBy(() -> queue.get(Duration.ZERO)).isInstanceOf(QueueEmptyException.class);
            });
        }
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void getNowaitOnAQueueWithWorkThrowsQueueEmptyWhileAnotherConnectionHoldsTheWriteLock() throws Exception {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");

        try (Connection locker = writeLockHolder()) {
            assertTimeoutPreemptively(Duration.ofSeconds(3), () -> {
                assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                        .hasMessageContaining("temporarily unavailable");
                assertThatThrownBy(() -> queue.get(Duration.ZERO)).isInstanceOf(QueueEmptyException.class)
                        .hasMessageContaining("temporarily unavailable");
            });
            locker.createStatement().execute("ROLLBACK");
        }

        assertThat(queue.getNowait().id()).isEqualTo(id);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void getWithATimeoutEndsAtItsDeadlineWhileAnotherConnectionHoldsTheWriteLock() throws Exception {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");

        try (Connection locker = writeLockHolder()) {
            // The lock is held until the test lets go, far beyond the deadline and the 30 s write budget.
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(
                    () -> queue.get(Duration.ofMillis(300))).isInstanceOf(QueueEmptyException.class));
            assertThat(queue.stats().ready()).isEqualTo(1);
            locker.createStatement().execute("ROLLBACK");
        }

        assertThat(queue.get(Duration.ofSeconds(5)).id()).isEqualTo(id);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void getWithoutATimeoutWaitsOutAnotherConnectionsWriteLock() throws Exception {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        Threads.Call<Job<Object>> get;
        try (Connection locker = writeLockHolder()) {
            get = Threads.start("consumer", queue::get).awaitParked();
            assertThat(get.result()).isNotDone();
            locker.createStatement().execute("ROLLBACK");
        }

        assertThat(get.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS).id()).isEqualTo(id);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void putWaitsOutAnotherConnectionsWriteLock() throws Exception {
        SimpleQueue<Object> queue = queue();
        Threads.Call<Long> put;
        try (Connection locker = writeLockHolder()) {
            put = Threads.start("producer", () -> queue.put("a")).awaitParked();
            assertThat(put.result()).isNotDone();
            locker.createStatement().execute("ROLLBACK");
        }

        long id = put.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS);

        assertThat(queue.getNowait().id()).isEqualTo(id);
    }

    @Test
    void jobsAreAckedFromOneThreadWhileOthersPutAndGet() throws Exception {
        SimpleQueue<Object> queue = queue();
        int total = 100;
        BlockingQueue<Job<Object>> claimed = new LinkedBlockingQueue<>();
        AtomicInteger claimedCount = new AtomicInteger();
        List<Future<?>> tasks = new ArrayList<>();

        tasks.add(pool.submit(() -> {
            for (int i = 0; i < total; i++) {
                queue.put("job " + i);
            }
            return null;
        }));
        for (int c = 0; c < 2; c++) {
            tasks.add(pool.submit(() -> {
                while (claimedCount.get() < total) {
                    try {
                        claimed.add(queue.get(Duration.ofMillis(100)));
                        claimedCount.incrementAndGet();
                    } catch (QueueEmptyException empty) {
                        // keep polling until every job was claimed
                    }
                }
                return null;
            }));
        }
        tasks.add(pool.submit(() -> {
            for (int i = 0; i < total; i++) {
                Job<Object> job = claimed.poll(Threads.BOUND.toSeconds(), TimeUnit.SECONDS);
                assertThat(job).as("claimed job %s", i).isNotNull();
                queue.ack(job);
            }
            return null;
        }));

        for (Future<?> task : tasks) {
            task.get(30, TimeUnit.SECONDS);
        }
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, total, 0));
    }

    @Test
    void concurrentPutsOfOneJobIdCreateOneJob() throws Exception {
        SimpleQueue<Object> queue = queue();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Long>> puts = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            int thread = i;
            puts.add(pool.submit(() -> {
                start.await();
                return queue.put("from " + thread, "job-123");
            }));
        }

        start.countDown();

        List<Long> ids = new ArrayList<>();
        for (Future<Long> put : puts) {
            ids.add(put.get(30, TimeUnit.SECONDS));
        }
        assertThat(ids).containsOnly(ids.get(0));
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void concurrentBatchesOfTheSameJobIdsResolveToTheSameIds() throws Exception {
        SimpleQueue<Object> queue = queue();
        List<EnqueueItem<Object>> batch = IntStream.range(0, 50)
                .mapToObj(i -> EnqueueItem.<Object>of("p" + i, "job-" + i)).toList();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Long>>> puts = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            puts.add(pool.submit(() -> {
                start.await();
                return queue.putMany(batch);
            }));
        }

        start.countDown();

        List<Long> first = puts.get(0).get(30, TimeUnit.SECONDS);
        for (Future<List<Long>> put : puts) {
            assertThat(put.get(30, TimeUnit.SECONDS)).isEqualTo(first);
        }
        assertThat(first).doesNotHaveDuplicates();
        assertThat(queue.stats()).isEqualTo(new QueueStats(50, 0, 0, 0));
    }

    private Map<Long, AtomicInteger> drainConcurrently(List<SimpleQueue<Object>> queues) throws Exception {
        Map<Long, AtomicInteger> claims = new ConcurrentHashMap<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Void>> workers = new ArrayList<>();
        for (SimpleQueue<Object> queue : queues) {
            Callable<Void> worker = () -> {
                start.await();
                while (true) {
                    Job<Object> job;
                    try {
                        job = queue.get(Duration.ofMillis(250));
                    } catch (QueueEmptyException empty) {
                        return null;
                    }
                    claims.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet();
                    queue.ack(job);
                }
            };
            workers.add(pool.submit(worker));
        }
        start.countDown();
        for (Future<Void> worker : workers) {
            worker.get(30, TimeUnit.SECONDS);
        }
        return claims;
    }

    /** A raw connection to the queue's file that holds SQLite's write lock until closed or rolled back; SQLite only. */
    private Connection writeLockHolder() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(LocalQueueDatabase.FILE_NAME));
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
        }
        return connection;
    }

    private SimpleQueue<Object> queue() {
        return open(SimpleQueue.builder(database()));
    }
}
