package io.localqueue.multiprocess;

import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.HELD;
import static io.localqueue.multiprocess.QueueChild.HOLD_WRITERS_LINE;
import static io.localqueue.multiprocess.QueueChild.HOLD_WRITE_LOCK;
import static io.localqueue.multiprocess.QueueChild.LOCKED;
import static io.localqueue.multiprocess.QueueChild.READY;
import static io.localqueue.multiprocess.QueueChild.RELEASE;
import static io.localqueue.multiprocess.QueueChild.RELEASED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.engine.Database;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.Stores;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.testsupport.ChildProcess;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Another process holding SQLite's write lock longer than SQLite's own busy timeout, or holding the line this
 * library's writers wait in.
 */
class MultiProcessWriteLockTest extends MultiProcessTestBase {

    /** Longer than SQLite's 5 s busy timeout, so only the engine's own retrying can outlast it. */
    private static final long HOLD_MILLIS = 5500;

    private final ExecutorService threads = Executors.newFixedThreadPool(3);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void transitionsWaitOutAnotherProcessHoldingTheWriteLockPastTheBusyTimeout() throws Exception {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            queue.putMany(List.of(EnqueueItem.of("to-ack"), EnqueueItem.of("to-nack"), EnqueueItem.of("to-fail")));
            Job<Object> toAck = queue.get(Duration.ofSeconds(5));
            Job<Object> toNack = queue.get(Duration.ofSeconds(5));
            Job<Object> toFail = queue.get(Duration.ofSeconds(5));
            assertThat(List.of(toAck.data(), toNack.data(), toFail.data()))
                    .containsExactly("to-ack", "to-nack", "to-fail");

            ChildProcess slowWriter = children.start("slow-writer", HOLD_WRITE_LOCK, dir.resolve("localqueue.db"),
                    HOLD_MILLIS);
            slowWriter.expect(READY);
            slowWriter.send(GO);
            slowWriter.expect(LOCKED);
            CompletableFuture<Void> ack = CompletableFuture.runAsync(() -> queue.ack(toAck), threads);
            CompletableFuture<Void> nack = CompletableFuture.runAsync(() -> queue.nack(toNack), threads);
            CompletableFuture<Void> fail = CompletableFuture.runAsync(() -> queue.fail(toFail), threads);

            slowWriter.expect(HELD);
            assertThat(ack).as("ack while the lock is held").isNotDone();
            assertThat(nack).as("nack while the lock is held").isNotDone();
            assertThat(fail).as("fail while the lock is held").isNotDone();
            slowWriter.send(RELEASE);
            slowWriter.expect(RELEASED);
            slowWriter.awaitSuccess();

            CompletableFuture.allOf(ack, nack, fail).get(30, TimeUnit.SECONDS);
            assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 1, 1));
            Job<Object> again = queue.getNowait();
            assertThat(again.id()).isEqualTo(toNack.id());
            assertThat(again.attempts()).isEqualTo(1);
        }
    }

    @Test
    void putsOutwaitATenSecondHoldAndGiveUpClearlyOnAFortySecondOneWhileClaimsKeepTheirDeadlines() throws Exception {
        java.nio.file.Path shortDir = java.nio.file.Files.createDirectories(dir.resolve("ten-seconds"));
        java.nio.file.Path longDir = java.nio.file.Files.createDirectories(dir.resolve("forty-seconds"));
        try (SimpleQueue<Object> shortHeld = SimpleQueue.builder(shortDir).build();
             SimpleQueue<Object> longHeld = SimpleQueue.builder(longDir).build()) {
            long waiting = longHeld.put("waiting");
            ChildProcess tenSeconds = children.start("ten-seconds", HOLD_WRITE_LOCK, shortDir.resolve("localqueue.db"),
                    10_000);
            ChildProcess fortySeconds = children.start("forty-seconds", HOLD_WRITE_LOCK,
                    longDir.resolve("localqueue.db"), 40_000);
            for (ChildProcess holder : List.of(tenSeconds, fortySeconds)) {
                holder.expect(READY);
                holder.send(GO);
                holder.expect(LOCKED);
            }
            long start = System.nanoTime();
            CompletableFuture<Long> outwaits = CompletableFuture.supplyAsync(() -> shortHeld.put("outwaits"), threads);
            CompletableFuture<Long> givesUp = CompletableFuture.supplyAsync(() -> longHeld.put("gives up"), threads);

            assertThatThrownBy(() -> longHeld.get(Duration.ofSeconds(2))).isInstanceOf(QueueEmptyException.class);
            assertThatThrownBy(longHeld::getNowait).isInstanceOf(QueueEmptyException.class)
                    .hasMessageContaining("temporarily unavailable");
            tenSeconds.expect(HELD);
            assertThat(outwaits).as("a put while the lock is held").isNotDone();
            tenSeconds.send(RELEASE);
            tenSeconds.expect(RELEASED);
            tenSeconds.awaitSuccess();
            assertThat(outwaits.get(30, TimeUnit.SECONDS)).isPositive();

            assertThatThrownBy(() -> givesUp.get(60, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(DatabaseBusyException.class).hasMessageContaining("database is locked")
                    .satisfies(busy -> assertThat(((DatabaseBusyException) busy).waited())
                            .isGreaterThanOrEqualTo(Duration.ofSeconds(29)));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the 40 s hold outlasted the put's budget")
                    .isLessThan(Duration.ofSeconds(40));
            fortySeconds.expect(HELD);
            fortySeconds.send(RELEASE);
            fortySeconds.expect(RELEASED);
            fortySeconds.awaitSuccess();
            assertThat(shortHeld.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(longHeld.stats()).as("nothing of the refused put").isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(longHeld.getNowait().id()).isEqualTo(waiting);
        }
    }

    @Test
    void writersWaitInLineBehindAnotherProcessWhileGetNowaitDoesNotWait() throws Exception {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            queue.put("first");
            ChildProcess holder = holdWritersLine();

            assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                    .hasMessageContaining("temporarily unavailable");
            CompletableFuture<Long> put = CompletableFuture.supplyAsync(() -> queue.put("second"), threads);
            assertThatThrownBy(() -> put.get(300, TimeUnit.MILLISECONDS)).as("put while the line is held")
                    .isInstanceOf(TimeoutException.class);
            holder.send(RELEASE);
            holder.expect(RELEASED);
            holder.awaitSuccess();

            assertThat(put.get(30, TimeUnit.SECONDS)).isPositive();
            assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
        }
    }

    @Test
    void aWriteWaitsInLineOnlyForItsBudget() throws Exception {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            queue.put("first");
            ChildProcess holder = holdWritersLine();
            Database database = Database.acquire(FileLocation.prepare(dir), Stores::open);
            try {
                assertThatThrownBy(() -> database.store().write(
                        WriteOptions.within("test", DurabilityMode.RELAXED, TimeUnit.MILLISECONDS.toNanos(300)), () -> { },
                        writes -> writes.claim(new ClaimRequest("default", System.currentTimeMillis(), Long.MAX_VALUE,
                                10, true, 0))))
                        .isInstanceOf(DatabaseBusyException.class)
                        .hasMessageContaining("writers' line");
                assertThat(Thread.currentThread().isInterrupted()).as("the ended wait leaves no interrupt").isFalse();
            } finally {
                database.close();
            }
            holder.send(RELEASE);
            holder.expect(RELEASED);
            holder.awaitSuccess();

            assertThat(queue.stats().ready()).as("the timed-out write changed nothing").isEqualTo(1);
            queue.put("second");
            assertThat(queue.stats().ready()).isEqualTo(2);
        }
    }

    /** Starts a child JVM that holds the line this library's writers wait in, until told to RELEASE. */
    private ChildProcess holdWritersLine() {
        ChildProcess holder = children.start("line-holder", HOLD_WRITERS_LINE, dir.resolve("localqueue.db-writers"));
        holder.expect(READY);
        holder.send(GO);
        holder.expect(LOCKED);
        return holder;
    }
}
