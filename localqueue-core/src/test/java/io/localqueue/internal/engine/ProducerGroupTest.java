package io.localqueue.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.store.sqlite.Failpoints;
import io.localqueue.internal.store.sqlite.SqliteQueueStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes of many producers share a transaction and every caller gets exactly its own outcome. Each test holds a first
 * write inside the store while the others line up behind it, one at a time so their order is known, then lets it go:
 * everything that lined up commits as the next transaction.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProducerGroupTest {

    private static final String QUEUE = "produced";
    private static final Clock CLOCK = Clock.systemUTC();
    private static final EnqueueInto INTO_QUEUE = new EnqueueInto(QUEUE, 5, CLOCK, 0);
    private static final EnqueueInto INTO_FOUR_PENDING = new EnqueueInto(QUEUE, 5, CLOCK, 4);

    @TempDir
    Path dir;

    private SqliteQueueStore sqlite;
    private RecordingStore store;
    private ProducerGroup group;
    private final List<Thread> threads = new ArrayList<>();

    @BeforeEach
    void open() {
        sqlite = SqliteQueueStore.open(FileLocation.prepare(dir).directory());
        store = new RecordingStore(sqlite);
        group = new ProducerGroup(store);
    }

    @AfterEach
    void close() throws InterruptedException {
        Failpoints.disarmAll();
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        sqlite.close();
    }

    @Test
    void putsLinedUpTogetherShareOneTransactionWithIdsInTheirOrder() throws Exception {
        Held held = holdTheCombiner();
        List<FutureTask<Enqueued>> puts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            puts.add(lineUp(put(QUEUE, 0, "a" + i, "b" + i)));
        }
        held.release();

        List<Long> ids = new ArrayList<>();
        for (FutureTask<Enqueued> put : puts) {
            ids.addAll(put.get().ids());
        }
        assertThat(store.transactions()).containsExactly("hold", "enqueue");
        assertThat(ids).as("ids in the order the callers lined up, each caller's in its own order").isSorted()
                .doesNotHaveDuplicates().hasSize(10);
        assertThat(payloads()).containsExactly("a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4");
    }

    @Test
    void duplicatesAndALimitReachedMidGroupStayWithTheirOwnCallers() throws Exception {
        long existing = group.put(INTO_FOUR_PENDING, List.of(job("old", "known")), DurabilityMode.RELAXED)
                .ids().get(0);
        Held held = holdTheCombiner();
        FutureTask<Enqueued> duplicateOfStored = lineUp(() -> group.put(INTO_FOUR_PENDING, List.of(job("again", "known")),
                DurabilityMode.RELAXED));
        FutureTask<Enqueued> fits = lineUp(put(QUEUE, 4, "one", "two"));
        FutureTask<Enqueued> duplicateInGroup = lineUp(() -> group.put(INTO_FOUR_PENDING, List.of(job("twin", "new")),
                DurabilityMode.RELAXED));
        FutureTask<Enqueued> sameTwin = lineUp(() -> group.put(INTO_FOUR_PENDING, List.of(job("twin again", "new")),
                DurabilityMode.RELAXED));
        FutureTask<Enqueued> tooMany = lineUp(put(QUEUE, 4, "no", "room"));
        held.release();

        assertThat(duplicateOfStored.get().ids()).containsExactly(existing);
        assertThat(fits.get().ids()).hasSize(2);
        long twin = duplicateInGroup.get().ids().get(0);
        assertThat(sameTwin.get().ids()).containsExactly(twin);
        assertThat(tooMany.get().ids()).as("no room left for this caller only").isNull();
        assertThat(tooMany.get().impossible()).isFalse();
        assertThat(payloads()).containsExactly("old", "one", "two", "twin");
    }

    @Test
    void aWriteWhoseOwnStatementsThrowFailsAloneAndTheOthersCommit() throws Exception {
        Held held = holdTheCombiner();
        FutureTask<Enqueued> before = lineUp(put(QUEUE, 0, "before"));
        FutureTask<Object> failing = lineUp(() -> group.write("dispatch", DurabilityMode.RELAXED, writes -> {
            writes.enqueue(QUEUE, List.of(job("rolled back", null)), 5, CLOCK.millis(), 0);
            throw new IllegalStateException("this caller's own conflict");
        }));
        FutureTask<Enqueued> after = lineUp(put(QUEUE, 0, "after"));
        held.release();

        assertThatThrownBy(failing::get).hasRootCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("this caller's own conflict");
        assertThat(before.get().ids()).hasSize(1);
        assertThat(after.get().ids()).hasSize(1);
        assertThat(payloads()).containsExactly("before", "after");
        assertThat(store.transactions()).as("the shared transaction rolled back once, then ran without it")
                .containsExactly("hold", "enqueue", "enqueue");
    }

    @Test
    void aBadPutInARowOfPutsToOneQueueIsFoundAndFailsAlone() throws Exception {
        Held held = holdTheCombiner();
        FutureTask<Enqueued> first = lineUp(put(QUEUE, 0, "first"));
        FutureTask<Enqueued> bad = lineUp(() -> group.put(INTO_QUEUE, List.of(new NewJob(null, null)),
                DurabilityMode.RELAXED));
        FutureTask<Enqueued> last = lineUp(put(QUEUE, 0, "last"));
        held.release();

        assertThatThrownBy(bad::get).isNotNull();
        assertThat(first.get().ids()).hasSize(1);
        assertThat(last.get().ids()).hasSize(1);
        assertThat(payloads()).containsExactly("first", "last");
    }

    @Test
    void aFailedCommitFailsExactlyTheCallersInItWithTheCauseAndWritesNone() throws Exception {
        Held held = holdTheCombiner();
        List<FutureTask<Enqueued>> puts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            puts.add(lineUp(put(QUEUE, 0, "lost" + i)));
        }
        Failpoints.arm("enqueue:before-commit:error=SQLITE_IOERR_WRITE");
        held.release();

        for (FutureTask<Enqueued> put : puts) {
            assertThatThrownBy(put::get).hasCauseInstanceOf(LocalQueueException.class)
                    .hasMessageContaining("SQLITE_IOERR_WRITE");
        }
        assertThat(payloads()).isEmpty();
        assertThat(group.put(INTO_QUEUE, List.of(job("next", null)), DurabilityMode.RELAXED).ids())
                .as("the next put goes through").hasSize(1);
        assertThat(payloads()).containsExactly("next");
    }

    @Test
    void theStrongestDurabilityAskedForInTheGroupApplies() throws Exception {
        Held held = holdTheCombiner();
        FutureTask<Enqueued> relaxed = lineUp(put(QUEUE, 0, "relaxed"));
        FutureTask<Enqueued> durable = lineUp(() -> group.put(INTO_QUEUE, List.of(job("durable", null)),
                DurabilityMode.DURABLE));
        held.release();
        relaxed.get();
        durable.get();

        assertThat(store.durabilities()).as("one transaction, at the strongest")
                .containsExactly(DurabilityMode.DURABLE);
    }

    @Test
    void aCallerAloneCommitsAtOnceInItsOwnTransaction() {
        for (int i = 0; i < 3; i++) {
            group.put(INTO_QUEUE, List.of(job("alone" + i, null)), DurabilityMode.RELAXED);
        }
        assertThat(store.transactions()).containsExactly("enqueue", "enqueue", "enqueue");
    }

    @Test
    void anInterruptedCallerStillGetsItsOutcomeAndKeepsItsInterrupt() throws Exception {
        Held held = holdTheCombiner();
        List<Boolean> flag = new CopyOnWriteArrayList<>();
        FutureTask<Enqueued> put = lineUp(() -> {
            Enqueued outcome = group.put(INTO_QUEUE, List.of(job("interrupted", null)), DurabilityMode.RELAXED);
            flag.add(Thread.currentThread().isInterrupted());
            return outcome;
        });
        threads.get(threads.size() - 1).interrupt();
        held.release();

        assertThat(put.get().ids()).hasSize(1);
        assertThat(flag).containsExactly(true);
    }

    @Test
    void everyCallerOfManyThreadsPuttingAtOnceReturnsWithItsOwnIdsInItsOrder() throws Exception {
        int producers = 64;
        int putsEach = 400;
        for (int round = 0; round < 3; round++) {
            ProducerGroup fresh = new ProducerGroup(store);
            String queue = "crowd-" + round;
            EnqueueInto into = new EnqueueInto(queue, 5, CLOCK, 0);
            CountDownLatch go = new CountDownLatch(1);
            List<FutureTask<List<Long>>> callers = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                callers.add(start(() -> {
                    waitFor(go);
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < putsEach; i++) {
                        ids.addAll(fresh.put(into, List.of(job("p" + i, null)), DurabilityMode.RELAXED).ids());
                    }
                    return ids;
                }));
            }
            go.countDown();

            List<Long> all = new ArrayList<>();
            for (FutureTask<List<Long>> caller : callers) {
                List<Long> ids = caller.get(40, TimeUnit.SECONDS);
                assertThat(ids).as("one caller's ids, in the order it put").hasSize(putsEach).isSorted();
                all.addAll(ids);
            }
            assertThat(all).as("round " + round).doesNotHaveDuplicates().hasSize(producers * putsEach);
            assertThat(sqlite.jobsPut(queue, 0, Long.MAX_VALUE, producers * putsEach + 1))
                    .hasSize(producers * putsEach);
        }
    }

    /** Starts a write that the store holds inside its transaction, holding the group's combiner meanwhile. */
    private Held holdTheCombiner() throws InterruptedException {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FutureTask<Object> holder = start(() -> group.write("hold", DurabilityMode.RELAXED, writes -> {
            inside.countDown();
            waitFor(release);
            return "held";
        }));
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        return new Held(holder, release);
    }

    /** Starts a caller and waits until it is parked behind the combiner, so the callers line up in a known order. */
    private <T> FutureTask<T> lineUp(Supplier<T> call) {
        FutureTask<T> task = start(call);
        Thread thread = threads.get(threads.size() - 1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> thread.getState() == Thread.State.WAITING);
        return task;
    }

    private <T> FutureTask<T> start(Supplier<T> call) {
        FutureTask<T> task = new FutureTask<>(call::get);
        Thread thread = new Thread(task, "producer-" + threads.size());
        threads.add(thread);
        thread.start();
        return task;
    }

    private Supplier<Enqueued> put(String queue, long limit, String... payloads) {
        List<NewJob> jobs = new ArrayList<>();
        for (String payload : payloads) {
            jobs.add(job(payload, null));
        }
        return () -> group.put(new EnqueueInto(queue, 5, CLOCK, limit), jobs, DurabilityMode.RELAXED);
    }

    private static NewJob job(String payload, String jobId) {
        return new NewJob(payload.getBytes(StandardCharsets.UTF_8), jobId);
    }

    private List<String> payloads() {
        List<String> payloads = new ArrayList<>();
        for (JobRow row : sqlite.jobsPut(QUEUE, 0, Long.MAX_VALUE, 1_000)) {
            payloads.add(new String(row.payload(), StandardCharsets.UTF_8));
        }
        return payloads;
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /** The held first write and the latch that lets it commit. */
    private record Held(FutureTask<Object> holder, CountDownLatch latch) {

        void release() throws Exception {
            latch.countDown();
            assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("held");
        }
    }

    /** A store that records every write transaction's name and durability. */
    private static final class RecordingStore extends ForwardingStore {

        private final List<WriteOptions> writes = new CopyOnWriteArrayList<>();

        RecordingStore(QueueStore target) {
            super(target);
        }

        @Override
        public <R> R write(WriteOptions options, Runnable ensureOpen, StoreWork<R> work) {
            writes.add(options);
            return target.write(options, ensureOpen, work);
        }

        List<String> transactions() {
            return writes.stream().map(WriteOptions::transaction).toList();
        }

        List<DurabilityMode> durabilities() {
            return writes.stream().filter(options -> !options.transaction().equals("hold"))
                    .map(WriteOptions::durability).toList();
        }
    }
}
