package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.HostChild.ACK;
import static io.localqueue.internal.store.postgresql.HostChild.ACKED;
import static io.localqueue.internal.store.postgresql.HostChild.CLAIM;
import static io.localqueue.internal.store.postgresql.HostChild.CLAIMED;
import static io.localqueue.internal.store.postgresql.HostChild.DONE;
import static io.localqueue.internal.store.postgresql.HostChild.FULL;
import static io.localqueue.internal.store.postgresql.HostChild.GO;
import static io.localqueue.internal.store.postgresql.HostChild.PRODUCE;
import static io.localqueue.internal.store.postgresql.HostChild.PUT;
import static io.localqueue.internal.store.postgresql.HostChild.READY;
import static io.localqueue.internal.store.postgresql.HostChild.STOP;
import static io.localqueue.internal.store.postgresql.HostChild.WORK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.ForeignJobs;
import io.localqueue.Job;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.Receipts;
import io.localqueue.testsupport.ChildProcess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several JVMs as hosts of one PostgreSQL database, each on a pool of its own opened by URL: every job is claimed
 * and acknowledged exactly once across them, the pending-job limit holds exactly across their producers, and the job
 * of a host killed with SIGKILL is claimed by another host within seconds, long before its lease ends, while a host
 * that runs keeps its job.
 */
class HostsOnOneServerTest {

    private static final Logger log = LoggerFactory.getLogger(HostsOnOneServerTest.class);

    private static final String QUEUE = "jobs";

    private final String schema = PostgresServer.freshSchema();
    private final String url = PostgresServer.url();
    private final Hosts hosts = new Hosts();

    @AfterEach
    void stopHosts() {
        hosts.close();
    }

    @Test
    void workersOnThreeHostsAckEveryJobExactlyOnce() {
        int jobs = 3_000;
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name(QUEUE).build()) {
            List<ChildProcess> workers = hosts.startReady(3, WORK, url, schema, QUEUE, 2, 1);
            Hosts.sendAll(workers, GO);
            List<Long> put = new ArrayList<>();
            for (int batch = 0; batch < jobs / 100; batch++) {
                int first = batch * 100;
                put.addAll(queue.putMany(IntStream.range(first, first + 100)
                        .mapToObj(i -> EnqueueItem.of("job-" + i)).toList()));
            }
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> queue.stats().acked() == jobs);
            Hosts.sendAll(workers, STOP);

            List<Long> acked = new ArrayList<>();
            Map<String, Integer> shares = new LinkedHashMap<>();
            for (ChildProcess worker : workers) {
                shares.put(worker.label(), readAcks(worker, acked));
                worker.awaitSuccess();
            }
            log.info("{} jobs acked by 3 hosts of 2 threads each, shares {}", acked.size(), shares);

            assertThat(put).hasSize(jobs).doesNotHaveDuplicates();
            assertThat(acked).as("ids acked across hosts").hasSize(jobs).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(put);
            assertThat(shares.values()).as("jobs acked per host %s", shares).allSatisfy(
                    share -> assertThat(share).isPositive());
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, jobs, 0));
        }
    }

    /** Reads a worker's ACKED lines up to DONE, each a first delivery, and returns how many it acked. */
    private static int readAcks(ChildProcess worker, List<Long> acked) {
        int count = 0;
        while (true) {
            String line = worker.nextLine();
            String[] words = line.split(" ");
            switch (words[0]) {
                case ACKED -> {
                    assertThat(words[2]).as("attempts before the delivery acked by %s: %s", worker, line)
                            .isEqualTo("0");
                    acked.add(Long.parseLong(words[1]));
                    count++;
                }
                case DONE -> {
                    assertThat(Integer.parseInt(words[1])).as("count reported by %s", worker).isEqualTo(count);
                    return count;
                }
                default -> fail("unexpected line from " + worker + ": " + line);
            }
        }
    }

    @Test
    void producersOnThreeHostsNeverExceedTheLimitBetweenThem() throws Exception {
        int limit = 50;
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name(QUEUE).build();
             PendingSampler pending = new PendingSampler(queue)) {
            // Nobody consumes: 3 × 40 attempts that never wait for room.
            List<ChildProcess> racing = hosts.startReady(3, PRODUCE, url, schema, QUEUE, limit, 40, 0);
            Hosts.sendAll(racing, GO);
            PutOutcomes first = PutOutcomes.of(racing);

            assertThat(first.accepted()).as("accepted while nobody consumes").hasSize(limit).doesNotHaveDuplicates();
            assertThat(first.full()).isEqualTo(3 * 40 - limit);
            assertThat(queue.stats()).isEqualTo(new QueueStats(limit, 0, 0, 0));

            // Room made one job at a time here, taken by 3 × 10 puts that wait for it on the other hosts.
            List<ChildProcess> waiting = hosts.startReady(3, PRODUCE, url, schema, QUEUE, limit, 10, 30_000);
            Hosts.sendAll(waiting, GO);
            for (int i = 0; i < 30; i++) {
                Job<String> job = queue.get(Duration.ofSeconds(30));
                queue.ack(job);
            }
            PutOutcomes second = PutOutcomes.of(waiting);

            assertThat(second.full()).as("puts that found no room within 30 s").isZero();
            assertThat(second.accepted()).hasSize(30).doesNotHaveDuplicates().doesNotContainAnyElementsOf(
                    first.accepted());
            assertThat(queue.stats()).isEqualTo(new QueueStats(limit, 0, 30, 0));
            log.info("limit {}: {} accepted and {} refused without waiting, then {} accepted as room was made; "
                    + "pending at most {} in {} samples", limit, first.accepted().size(), first.full(),
                    second.accepted().size(), pending.max(), pending.samples());
            assertThat(pending.max()).as("ready plus processing jobs, at most, in %d samples", pending.samples())
                    .isEqualTo(limit);
        }
    }

    /** What a set of producers reported: the ids each put, and how many puts found the queue full. */
    private record PutOutcomes(List<Long> accepted, int full) {

        static PutOutcomes of(List<ChildProcess> producers) {
            List<Long> accepted = new ArrayList<>();
            int full = 0;
            for (ChildProcess producer : producers) {
                int mine = 0;
                while (true) {
                    String line = producer.nextLine();
                    String[] words = line.split(" ");
                    if (words[0].equals(PUT)) {
                        accepted.add(Long.parseLong(words[1]));
                        mine++;
                    } else if (words[0].equals(FULL)) {
                        full++;
                    } else if (words[0].equals(DONE)) {
                        assertThat(Integer.parseInt(words[1])).as("count reported by %s", producer).isEqualTo(mine);
                        break;
                    } else {
                        fail("unexpected line from " + producer + ": " + line);
                    }
                }
                producer.awaitSuccess();
            }
            return new PutOutcomes(accepted, full);
        }
    }

    /** Counts a queue's pending (ready plus processing) jobs over and over on a thread of its own. */
    private static final class PendingSampler implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong max = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();
        private final Thread thread;

        PendingSampler(SimpleQueue<String> queue) {
            thread = new Thread(() -> {
                while (running.get()) {
                    QueueStats stats = queue.stats();
                    max.accumulateAndGet(stats.ready() + stats.processing(), Math::max);
                    samples.incrementAndGet();
                    LockSupport.parkNanos(1_000_000);
                }
            }, "pending-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        long max() throws InterruptedException {
            close();
            return max.get();
        }

        long samples() {
            return samples.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
        }
    }

    @Test
    void theJobOfAKilledHostIsClaimedByAnotherWithinSecondsNotWhenItsLeaseEnds() throws SQLException {
        long leaseMillis = 60_000;
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name(QUEUE).build()) {
            long id = queue.put("work");
            // Both hosts are started first, so that the other host already waits when the one is killed.
            ChildProcess doomed = hosts.start("doomed", CLAIM, url, schema, QUEUE, leaseMillis);
            ChildProcess successor = hosts.start("successor", CLAIM, url, schema, QUEUE, leaseMillis);
            doomed.expect(READY);
            successor.expect(READY);
            doomed.send(GO);
            List<String> claim = doomed.expect(CLAIMED);
            assertThat(claim.subList(0, 2)).as("id and attempts of the first claim")
                    .containsExactly(String.valueOf(id), "0");
            assertThat(Receipts.holderOf(claim.get(2))).as("the holder the receipt names").isNotNull();
            long leaseEnd = Long.parseLong(claim.get(4));

            successor.send(GO);
            // The other host looks for ended holders every second while it waits: a host that runs keeps its job.
            await().during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5))
                    .until(() -> claim.get(2).equals(receiptOf(id)));

            long killedAt = System.currentTimeMillis();
            assertThat(doomed.killHard()).as("exit status of a JVM killed by SIGKILL").isEqualTo(128 + 9);

            List<String> redelivery = successor.expect(CLAIMED);
            long secondClaimAt = Long.parseLong(redelivery.get(3));
            log.info("job {} claimed again by another host {} ms after its holder was killed, {} ms before its {} ms "
                    + "lease would have ended", id, secondClaimAt - killedAt, leaseEnd - secondClaimAt, leaseMillis);
            assertThat(redelivery.subList(0, 2)).as("id and attempts of the redelivery")
                    .containsExactly(String.valueOf(id), "1");
            assertThat(redelivery.get(2)).as("a new receipt").isNotEqualTo(claim.get(2));
            assertThat(secondClaimAt - killedAt).as("ms from the kill to the claim by another host")
                    .isLessThan(5_000);
            assertThatThrownBy(() -> queue.ack(ForeignJobs.of(queue, id, claim.get(2))))
                    .as("the dead host's receipt").isInstanceOf(LeaseExpiredException.class);

            successor.send(ACK);
            assertThat(successor.expect(ACKED)).containsExactly(String.valueOf(id));
            successor.awaitSuccess();
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        }
    }

    private String receiptOf(long id) throws SQLException {
        try (Connection connection = PostgresServer.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT receipt FROM " + schema + ".messages WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }
}
