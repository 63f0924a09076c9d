package io.localqueue.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.SimpleQueue;
import io.localqueue.testsupport.ChildProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A queue's limits across consumer JVMs: each child runs a worker with more threads than the limits allow, and prints
 * when each job ran; the ledger of all of them never shows more jobs of one key, or of the queue, running at once
 * than the limits, nor more claims in any window of the rate limit's period than its permits; a holder killed with
 * {@code kill -9} frees its slot. On the SQLite file here; a subclass runs it on a PostgreSQL schema, each child a
 * host of its own.
 */
@Tag("file-only")
class MultiProcessLimitsTest extends MultiProcessTestBase {

    private static final int CONSUMERS = 4;
    private static final int THREADS = 4;
    private static final int KEYS = 3;

    /** Where the queue lives, as {@link MaintenanceChild#database(String)} opens it. */
    String target() {
        return dir.toString();
    }

    private record Run(long id, String key, long claimedAt, long start, long end) {
    }

    @Test
    void noMoreJobsOfAKeyOrOfTheQueueRunAtOnceThanTheLimitsAcrossProcesses() {
        LimitsChild.Limits limits = new LimitsChild.Limits(5, 2, 0, 0, 30_000);
        int jobs = 2_000;
        List<Run> runs = runAll(limits, jobs, 2, index -> index % 10 == 9 ? null : "k" + index % KEYS);

        Map<String, List<Run>> byKey = runs.stream().filter(run -> !run.key().equals("-"))
                .collect(Collectors.groupingBy(Run::key));
        int busiestKey = byKey.values().stream().mapToInt(MultiProcessLimitsTest::mostAtOnce).max().orElseThrow();
        assertThat(busiestKey).as("jobs of one key running at once, at most maxConcurrentPerKey and reaching it")
                .isEqualTo(2);
        assertThat(mostAtOnce(runs)).as("jobs running at once, at most maxConcurrent").isBetween(3, 5);
    }

    @Test
    void noWindowOfTheRatePeriodHoldsMoreClaimsThanItsPermitsAcrossProcesses() {
        LimitsChild.Limits limits = new LimitsChild.Limits(0, 0, 40, 400, 30_000);
        List<Run> runs = runAll(limits, 240, 1, index -> null);

        List<Long> claims = runs.stream().map(Run::claimedAt).sorted().toList();
        int busiestWindow = 0;
        for (int last = 0; last < claims.size(); last++) {
            long end = claims.get(last);
            int first = last;
            while (first > 0 && claims.get(first - 1) > end - 400) {
                first--;
            }
            busiestWindow = Math.max(busiestWindow, last - first + 1);
        }
        assertThat(busiestWindow).as("claims in the busiest window of 400 ms: at most the permits, and near them, since a"
                + " claim counts at most 6 ms (its part of the period) longer than its window").isBetween(35, 40);
        assertThat(claims.get(claims.size() - 1) - claims.get(0)).as("240 claims at 40 per 400 ms")
                .isGreaterThanOrEqualTo(2_000);
    }

    @Test
    void aHolderKilledHardFreesItsSlot() throws Exception {
        LimitsChild.Limits limits = new LimitsChild.Limits(1, 0, 0, 0, 60_000);
        try (LocalQueueDatabase database = MaintenanceChild.database(target());
             SimpleQueue<Object> queue = limits.open(database)) {
            long first = queue.put("first");
            long second = queue.put("second");
            ChildProcess holder = children.start("holder", LimitsChild.class, LimitsChild.CLAIM_ONE,
                    arguments(target(), limits.arguments()));
            holder.expect(QueueChild.READY);
            holder.send(QueueChild.GO);
            assertThat(holder.expect(QueueChild.CLAIMED)).containsExactly(String.valueOf(first));
            assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                    .hasMessageContaining("maxConcurrent");

            holder.killHard();

            Job<Object> next = queue.get(Duration.ofSeconds(20));
            assertThat(next.id()).as("the killed holder's job, taken back, comes first").isEqualTo(first);
            queue.ack(next);
            assertThat(queue.getNowait().id()).isEqualTo(second);
        }
    }

    /**
     * Puts {@code jobs} jobs (keyed by {@code keyOf}), runs {@value #CONSUMERS} child workers of {@value #THREADS}
     * threads until every job is acknowledged, and returns what each job's run printed.
     */
    private List<Run> runAll(LimitsChild.Limits limits, int jobs, long workMillis,
                             java.util.function.IntFunction<String> keyOf) {
        try (LocalQueueDatabase database = MaintenanceChild.database(target());
             SimpleQueue<Object> queue = limits.open(database)) {
            List<ChildProcess> workers = new ArrayList<>();
            for (int i = 0; i < CONSUMERS; i++) {
                workers.add(children.start("worker-" + i, LimitsChild.class, LimitsChild.WORK,
                        arguments(target(), new Object[] {THREADS, workMillis}, limits.arguments())));
            }
            List<Long> ids = queue.putMany(IntStream.range(0, jobs).mapToObj(index -> {
                String key = keyOf.apply(index);
                EnqueueItem<Object> item = EnqueueItem.of(index);
                return key == null ? item : item.withOptions(EnqueueOptions.defaults().concurrencyKey(key));
            }).toList());
            workers.forEach(worker -> worker.expect(QueueChild.READY));
            ChildProcesses.sendAll(workers, QueueChild.GO);
            await().atMost(Duration.ofMinutes(3)).until(() -> queue.stats().acked() == jobs);
            ChildProcesses.sendAll(workers, QueueChild.STOP);
            List<Run> runs = new ArrayList<>();
            for (ChildProcess worker : workers) {
                for (String line : worker.linesUntilExit(Duration.ofSeconds(60))) {
                    String[] words = line.split(" ");
                    if (words[0].equals(LimitsChild.RAN)) {
                        runs.add(new Run(Long.parseLong(words[1]), words[2], Long.parseLong(words[3]),
                                Long.parseLong(words[4]), Long.parseLong(words[5])));
                    }
                }
            }
            assertThat(runs).extracting(Run::id).as("every job ran once").containsExactlyInAnyOrderElementsOf(ids);
            return runs;
        }
    }

    /** The most runs that overlap at one instant: a sweep over their starts and ends, an end before a start. */
    private static int mostAtOnce(List<Run> runs) {
        List<long[]> edges = new ArrayList<>();
        for (Run run : runs) {
            edges.add(new long[] {run.start(), 1});
            edges.add(new long[] {run.end(), -1});
        }
        edges.sort(Comparator.<long[]>comparingLong(edge -> edge[0]).thenComparingLong(edge -> edge[1]));
        int running = 0;
        int most = 0;
        for (long[] edge : edges) {
            running += (int) edge[1];
            most = Math.max(most, running);
        }
        return most;
    }

    private static Object[] arguments(String target, Object[]... groups) {
        List<Object> all = new ArrayList<>();
        all.add(target);
        for (Object[] group : groups) {
            all.addAll(List.of(group));
        }
        return all.toArray();
    }
}
