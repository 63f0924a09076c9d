package io.localqueue.multiprocess;

import static io.localqueue.multiprocess.QueueChild.ACK;
import static io.localqueue.multiprocess.QueueChild.ACKED;
import static io.localqueue.multiprocess.QueueChild.CLAIMED;
import static io.localqueue.multiprocess.QueueChild.CLAIM_AND_WAIT;
import static io.localqueue.multiprocess.QueueChild.DONE;
import static io.localqueue.multiprocess.QueueChild.FINISH;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.HANDLED;
import static io.localqueue.multiprocess.QueueChild.HOLD;
import static io.localqueue.multiprocess.QueueChild.READY;
import static io.localqueue.multiprocess.QueueChild.STARTED;
import static io.localqueue.multiprocess.QueueChild.STOP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.internal.store.Receipts;
import io.localqueue.testsupport.ChildProcess;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leases of a consumer process that died come back within about a second, not when they end: each receipt names
 * its process's slot in the file's liveness side file, and a consumer that finds the slot free (or taken over by a
 * newer process) takes those leases back. A process that runs keeps its leases however slow it is. The lease is 60 s
 * throughout, so that a job coming back within seconds can only have come back early.
 */
class MultiProcessLeaseHolderTest extends MultiProcessTestBase {

    private static final Logger log = LoggerFactory.getLogger(MultiProcessLeaseHolderTest.class);

    private static final Duration LEASE = Duration.ofSeconds(60);
    /** How soon after a kill every job the killed process held must have been claimed again. */
    private static final Duration SOON = Duration.ofSeconds(5);
    private static final int CONCURRENCY = 2;
    private static final int PREFETCH = 4;
    private static final int QUICK = 10;

    @Test
    void theJobsOfAKilledProcessAreClaimedByAnotherWithinSecondsNotWhenTheirLeasesEnd() throws Exception {
        int jobs = 40;
        try (SimpleQueue<Object> queue = queue()) {
            queue.putMany(IntStream.range(0, jobs).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
            ChildProcess doomed = children.start("doomed", HOLD, dir, CONCURRENCY, PREFETCH, QUICK, LEASE.toMillis());
            doomed.expect(READY);
            doomed.send(GO);
            awaitStuck(doomed);
            Map<Long, String> held = leasedReceipts();
            assertThat(held).as("jobs leased to the process with both handlers stuck").hasSizeBetween(CONCURRENCY,
                    CONCURRENCY + PREFETCH);
            assertThat(held.values()).as("receipts naming the process's holder")
                    .allSatisfy(receipt -> assertThat(Receipts.holderOf(receipt)).isNotNull())
                    .extracting(Receipts::holderOf).containsOnly(Receipts.holderOf(held.values().iterator().next()));

            Map<Long, Long> claimedAt = new ConcurrentHashMap<>();
            Map<Long, Integer> attempts = new ConcurrentHashMap<>();
            Worker<Object> survivor = Worker.builder(queue, job -> {
                claimedAt.put(job.id(), System.nanoTime());
                attempts.put(job.id(), job.attempts());
            }).build();
            survivor.start();
            try {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(queue.stats()).isEqualTo(
                        new QueueStats(0, held.size(), jobs - held.size(), 0)));

                long killedAt = System.nanoTime();
                assertThat(doomed.killHard()).as("exit status of a JVM killed by SIGKILL").isEqualTo(128 + 9);
                await().atMost(SOON).until(() -> claimedAt.keySet().containsAll(held.keySet()));

                long slowestMillis = held.keySet().stream()
                        .mapToLong(id -> TimeUnit.NANOSECONDS.toMillis(claimedAt.get(id) - killedAt)).max().orElseThrow();
                log.info("the {} jobs of the killed process were all claimed again within {} ms of its kill, under a "
                        + "{} s lease", held.size(), slowestMillis, LEASE.toSeconds());
                assertThat(slowestMillis).as("ms from the kill to the last job claimed again")
                        .isLessThan(SOON.toMillis());
                assertThat(held.keySet()).as("each held job's delivery to the killed process counted")
                        .allSatisfy(id -> assertThat(attempts.get(id)).isEqualTo(1));
                await().atMost(SOON).until(() -> queue.stats().equals(new QueueStats(0, 0, jobs, 0)));
            } finally {
                survivor.stop(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void aProcessThatRunsKeepsItsJobsHoweverSlowWhileAnotherConsumerLooks() throws Exception {
        int jobs = 20;
        try (SimpleQueue<Object> queue = queue()) {
            queue.putMany(IntStream.range(0, jobs).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
            ChildProcess slow = children.start("slow", HOLD, dir, CONCURRENCY, PREFETCH, QUICK, LEASE.toMillis());
            slow.expect(READY);
            slow.send(GO);
            awaitStuck(slow);
            Map<Long, String> held = leasedReceipts();

            Map<Long, Integer> survivorTook = new ConcurrentHashMap<>();
            Worker<Object> other = Worker.builder(queue, job -> survivorTook.put(job.id(), job.attempts())).build();
            other.start();
            try {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(queue.stats()).isEqualTo(
                        new QueueStats(0, held.size(), jobs - held.size(), 0)));
                // Three looks for ended holders at least: the slow process's leases stay as they are.
                await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                        .untilAsserted(() -> assertThat(leasedReceipts()).isEqualTo(held));
                assertThat(survivorTook.keySet()).doesNotContainAnyElementsOf(held.keySet());

                slow.send(FINISH);
                await().atMost(Duration.ofSeconds(30)).until(() -> queue.stats().acked() == jobs);
                slow.send(STOP);
                Map<Long, Integer> slowHandled = new HashMap<>();
                while (true) {
                    String[] words = slow.nextLine().split(" ");
                    if (words[0].equals(DONE)) {
                        break;
                    }
                    if (words[0].equals(HANDLED)) {
                        slowHandled.put(Long.parseLong(words[1]), Integer.parseInt(words[2]));
                    }
                }
                slow.awaitSuccess();
                assertThat(slowHandled).as("the held jobs, each finished on its first delivery by the slow process")
                        .containsAllEntriesOf(held.keySet().stream().collect(
                                java.util.stream.Collectors.toMap(id -> id, id -> 0)));
                assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, jobs, 0));
            } finally {
                other.stop(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void aNewProcessInTheSlotOfAKilledOneDoesNotKeepTheKilledOnesLeasesAlive() throws Exception {
        try (SimpleQueue<Object> queue = queue();
             SimpleQueue<Object> other = SimpleQueue.builder(dir).name("other").build()) {
            long id = queue.put("held");
            long otherId = other.put("other");
            ChildProcess doomed = children.start("doomed", HOLD, dir, 1, 0, 0, LEASE.toMillis());
            doomed.expect(READY);
            doomed.send(GO);
            assertThat(doomed.expect(STARTED)).containsExactly(String.valueOf(id));
            String doomedHolder = Receipts.holderOf(leasedReceipts().get(id));
            assertThat(doomed.killHard()).isEqualTo(128 + 9);

            // This JVM has claimed nothing yet, so the newcomer takes the lowest free slot: the killed process's.
            ChildProcess newcomer = children.start("newcomer", CLAIM_AND_WAIT, dir, "other", LEASE.toMillis());
            newcomer.expect(READY);
            newcomer.send(GO);
            String newcomerReceipt = newcomer.expect(CLAIMED).get(2);
            String newcomerHolder = Receipts.holderOf(newcomerReceipt);
            assertThat(newcomerHolder).as("the newcomer's holder").isNotNull().isNotEqualTo(doomedHolder);
            assertThat(newcomerHolder.substring(0, 4)).as("the newcomer's slot").isEqualTo(doomedHolder.substring(0, 4));

            long start = System.nanoTime();
            Job<Object> again = queue.get(SOON);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            log.info("the killed process's job was claimed again {} ms after the claim began, with its slot taken over",
                    millis);
            assertThat(again.id()).isEqualTo(id);
            assertThat(again.attempts()).isEqualTo(1);
            queue.ack(again);

            assertThat(leasedReceipts()).as("the newcomer's lease, untouched").containsExactly(
                    Map.entry(otherId, newcomerReceipt));
            newcomer.send(ACK);
            assertThat(newcomer.expect(ACKED)).containsExactly(String.valueOf(otherId));
            newcomer.awaitSuccess();
        }
    }

    /**
     * Reads the child's lines until both its handlers are stuck, skipping the jobs it handled quickly first, and waits
     * until the acknowledgements of those, which commit after the handler returned, are in.
     */
    private void awaitStuck(ChildProcess child) {
        int stuck = 0;
        while (stuck < CONCURRENCY) {
            String line = child.nextLine();
            if (line.startsWith(STARTED + " ")) {
                stuck++;
            } else {
                assertThat(line).as("a line of %s", child).startsWith(HANDLED + " ");
            }
        }
        try (SimpleQueue<Object> queue = queue()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> queue.stats().acked() == QUICK);
        }
    }

    private SimpleQueue<Object> queue() {
        return SimpleQueue.builder(dir).delivery(DeliveryPolicy.defaults().withLease(LEASE)).build();
    }

    /** The file's leased rows: id to receipt. */
    private Map<Long, String> leasedReceipts() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("localqueue.db"));
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, receipt FROM messages WHERE status = 1")) {
            Map<Long, String> leased = new TreeMap<>();
            while (rows.next()) {
                leased.put(rows.getLong(1), rows.getString(2));
            }
            return leased;
        }
    }
}
