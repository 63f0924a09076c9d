package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.sqlite.Failpoints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Producers on many threads at once, whose puts share transactions: each caller gets exactly its own outcome (its
 * ids, a duplicate's existing id, no room, its serializer's refusal, a failed commit) and the file holds exactly what
 * the callers were told. The model test draws threads and calls from a printed seed; set
 * {@code -Dlocalqueue.test.seed=<seed>} to replay it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentProducersTest extends QueueTestBase {

    @AfterEach
    void disarm() {
        Failpoints.disarmAll();
    }

    @Test
    void idsAndOrderMatchTheModelOfWhatEachCallerWasTold() throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        int threads = 2 + random.nextInt(7);
        Map<String, SimpleQueue<String>> queues = Map.of(
                "a", open(SimpleQueue.builder(database(), String.class).name("a").clock(clock)),
                "b", open(SimpleQueue.builder(database(), String.class).name("b").clock(clock)));
        List<List<Call>> plans = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Call> plan = new ArrayList<>();
            for (int c = 0, calls = 20 + random.nextInt(30); c < calls; c++) {
                List<EnqueueItem<String>> items = new ArrayList<>();
                for (int i = 0, size = random.nextInt(3) == 0 ? 1 + random.nextInt(4) : 1; i < size; i++) {
                    String jobId = random.nextInt(4) == 0 ? "k" + random.nextInt(8) : null;
                    items.add(EnqueueItem.of(t + "-" + c + "-" + i, jobId));
                }
                plan.add(new Call(t, c, random.nextBoolean() ? "a" : "b", items, items.size() > 1 || random.nextBoolean()));
            }
            plans.add(plan);
        }
        String context = "seed " + seed + ", " + threads + " threads";

        runTogether(plans.size(), t -> {
            for (Call call : plans.get(t)) {
                SimpleQueue<String> queue = queues.get(call.queue);
                call.started = System.nanoTime();
                if (call.many) {
                    call.ids = queue.putMany(call.items);
                } else {
                    call.ids = List.of(queue.put(call.items.get(0).data(), call.items.get(0).jobId()));
                }
                call.returned = System.nanoTime();
            }
        });

        List<Call> calls = plans.stream().flatMap(List::stream).toList();
        Map<String, Map<Long, StoredJob<String>>> stored = new HashMap<>();
        for (String name : queues.keySet()) {
            Map<Long, StoredJob<String>> rows = new HashMap<>();
            for (StoredJob<String> job : allJobs(queues.get(name))) {
                rows.put(job.id(), job);
            }
            stored.put(name, rows);
        }
        Map<String, Long> byJobId = new HashMap<>();
        Map<String, Set<String>> payloadsOfJobId = new HashMap<>();
        Set<Long> told = new HashSet<>();
        Set<Long> fresh = new HashSet<>();
        for (Call call : calls) {
            assertThat(call.ids).as("%s: %s", context, call).hasSize(call.items.size());
            for (int i = 0; i < call.items.size(); i++) {
                EnqueueItem<String> item = call.items.get(i);
                long id = call.ids.get(i);
                told.add(id);
                StoredJob<String> row = stored.get(call.queue).get(id);
                assertThat(row).as("%s: %s item %d is stored in its queue under its id", context, call, i)
                        .isNotNull();
                if (item.jobId() == null) {
                    assertThat(fresh.add(id)).as("%s: id %d given to one job only", context, id).isTrue();
                    assertThat(row.data()).as("%s: %s item %d", context, call, i).isEqualTo(item.data());
                } else {
                    String key = call.queue + "/" + item.jobId();
                    Long first = byJobId.putIfAbsent(key, id);
                    assertThat(first == null ? id : first).as("%s: every put of %s got one id", context, key)
                            .isEqualTo(id);
                    payloadsOfJobId.computeIfAbsent(key, k -> new HashSet<>()).add(item.data());
                }
            }
        }
        for (Map.Entry<String, Long> entry : byJobId.entrySet()) {
            String queue = entry.getKey().substring(0, 1);
            assertThat(payloadsOfJobId.get(entry.getKey()))
                    .as("%s: %s keeps the payload of one of its puts", context, entry.getKey())
                    .contains(stored.get(queue).get(entry.getValue()).data());
        }
        assertThat(stored.get("a").size() + stored.get("b").size()).as("%s: nothing stored but what callers were told",
                context).isEqualTo(told.size());
        for (List<Call> plan : plans) {
            List<Long> ownFresh = new ArrayList<>();
            for (Call call : plan) {
                ownFresh.addAll(call.freshIds());
            }
            assertThat(ownFresh).as("%s: a thread's new jobs take ids in its order", context).isSorted();
        }
        for (Call before : calls) {
            for (Call after : calls) {
                if (before.returned < after.started && !before.freshIds().isEmpty() && !after.freshIds().isEmpty()) {
                    assertThat(before.freshIds().get(before.freshIds().size() - 1))
                            .as("%s: %s returned before %s started, so its commit came first", context, before, after)
                            .isLessThan(after.freshIds().get(0));
                }
            }
        }
    }

    @Test
    void aPayloadTheSerializerRefusesFailsOnlyItsCaller() throws Exception {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), new RefusingSerializer("refused")).clock(clock));
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger returned = new AtomicInteger();
        runTogether(8, t -> {
            for (int n = 0; n < 40; n++) {
                String payload = t == 3 && n == 10 ? "refused" : t + "-" + n;
                try {
                    queue.put(payload);
                    returned.incrementAndGet();
                } catch (RuntimeException failure) {
                    failures.add(failure);
                }
            }
        });

        assertThat(failures).singleElement().satisfies(failure ->
                assertThat(failure).hasStackTraceContaining("cannot write refused"));
        assertThat(returned).hasValue(319);
        assertThat(allJobs(queue)).hasSize(319)
                .noneMatch(job -> "refused".equals(job.data()));
    }

    @Test
    void aLimitReachedByProducersTogetherTurnsAwayOnlyThePutsThatDoNotFit() throws Exception {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), String.class).maxPendingJobs(60).clock(clock));
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger full = new AtomicInteger();
        runTogether(8, t -> {
            for (int n = 0; n < 20; n++) {
                try {
                    queue.put(t + "-" + n, null, Duration.ZERO);
                    accepted.incrementAndGet();
                } catch (QueueFullException refused) {
                    full.incrementAndGet();
                }
            }
        });

        assertThat(accepted).hasValue(60);
        assertThat(full).hasValue(100);
        assertThat(queue.stats()).isEqualTo(new QueueStats(60, 0, 0, 0));
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void aFailedSharedCommitFailsItsCallersOnlyAndStoresNoneOfTheirJobs() throws Exception {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), String.class).clock(clock));
        Set<String> returned = ConcurrentHashMap.newKeySet();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        List<Throwable> causes = new CopyOnWriteArrayList<>();
        runTogether(8, t -> {
            for (int n = 0; n < 100; n++) {
                String payload = t + "-" + n;
                try {
                    queue.put(payload);
                    if (returned.add(payload) && returned.size() == 200) {
                        Failpoints.arm("enqueue:before-commit:error=SQLITE_IOERR_WRITE");
                    }
                } catch (LocalQueueException failure) {
                    failed.add(payload);
                    causes.add(failure);
                }
            }
        });

        assertThat(failed).as("the callers of the one failed commit").isNotEmpty();
        assertThat(causes).allSatisfy(cause -> assertThat(cause).hasMessageContaining("SQLITE_IOERR_WRITE"));
        assertThat(returned.size() + failed.size()).isEqualTo(800);
        Set<String> stored = new HashSet<>();
        for (StoredJob<String> job : allJobs(queue)) {
            stored.add(job.data());
        }
        assertThat(stored).isEqualTo(returned);
    }

    /** Every job of a queue, page by page in id order. */
    private static List<StoredJob<String>> allJobs(SimpleQueue<String> queue) {
        List<StoredJob<String>> all = new ArrayList<>();
        List<StoredJob<String>> page;
        long after = 0;
        while (!(page = queue.listJobsPut(after, Long.MAX_VALUE, 1_000)).isEmpty()) {
            all.addAll(page);
            after = page.get(page.size() - 1).id();
        }
        return all;
    }

    /** Runs {@code body} on {@code threads} threads released together, and rethrows the first failure. */
    private static void runTogether(int threads, ThreadBody body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    body.run(thread);
                } catch (Throwable failure) {
                    failures.add(failure);
                }
            }, "producer-" + t);
            worker.start();
            started.add(worker);
        }
        start.countDown();
        for (Thread worker : started) {
            worker.join(TimeUnit.SECONDS.toMillis(90));
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a producer thread failed", failures.get(0));
        }
    }

    private static long seed() {
        String configured = System.getProperty("localqueue.test.seed");
        long seed = configured == null || configured.isBlank() ? System.nanoTime() : Long.parseLong(configured.trim());
        System.out.println("ConcurrentProducersTest seed " + seed + " (replay with -Dlocalqueue.test.seed=" + seed
                + ")");
        return seed;
    }

    @FunctionalInterface
    private interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /** One call a thread makes, and what it was told. */
    private static final class Call {

        final int thread;
        final int index;
        final String queue;
        final List<EnqueueItem<String>> items;
        final boolean many;
        volatile List<Long> ids = List.of();
        volatile long started;
        volatile long returned;

        Call(int thread, int index, String queue, List<EnqueueItem<String>> items, boolean many) {
            this.thread = thread;
            this.index = index;
            this.queue = queue;
            this.items = items;
            this.many = many;
        }

        /** The ids of the call's jobs without a job id, which are new rows. */
        List<Long> freshIds() {
            List<Long> fresh = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).jobId() == null) {
                    fresh.add(ids.get(i));
                }
            }
            return fresh;
        }

        @Override
        public String toString() {
            return "thread " + thread + " call " + index + " (" + (many ? "putMany" : "put") + " to " + queue + " of "
                    + items + ")";
        }
    }
}
