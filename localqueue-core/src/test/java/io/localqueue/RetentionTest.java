package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Retention: finished jobs are deleted once older than the queue keeps them (acknowledged ones after 7 days by
 * default, dead letters only when asked), in batches, and a pending or leased job never is.
 */
class RetentionTest extends QueueTestBase {

    @Test
    void acknowledgedJobsOlderThanTheRetentionAreDeletedAndTheRestKept() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock)
                .delivery(DeliveryPolicy.defaults().withLease(Duration.ofHours(2)))
                .retention(Duration.ofHours(1), null));
        queue.putMany(IntStream.range(0, 6).mapToObj(i -> EnqueueItem.<Object>of("job-" + i)).toList());
        for (int i = 0; i < 3; i++) {
            queue.ack(queue.getNowait());
        }
        queue.fail(queue.getNowait(), "dead");
        clock.advance(Duration.ofMinutes(30));
        queue.ack(queue.getNowait());
        Job<Object> leased = queue.getNowait();
        clock.advance(Duration.ofMinutes(31));

        assertThat(queue.runRetention()).isEqualTo(3);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 1, 1));
        queue.ack(leased);
    }

    @Test
    void acknowledgedJobsAreKeptSevenDaysByDefaultAndDeadLettersUntilPurged() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        queue.putMany(List.of(EnqueueItem.of("acked"), EnqueueItem.of("failed")));
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait(), "dead");

        clock.advance(SimpleQueue.DEFAULT_ACKED_RETENTION.minusMillis(1));
        assertThat(queue.runRetention()).isZero();
        clock.advance(Duration.ofMillis(2));
        assertThat(queue.runRetention()).isEqualTo(1);

        clock.advance(Duration.ofDays(365));
        assertThat(queue.runRetention()).isZero();
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    void deadLettersGoWhenAFailedRetentionIsSet() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock)
                .retention(Duration.ofDays(30), Duration.ofDays(2)));
        queue.put("failed");
        queue.fail(queue.getNowait(), "dead");
        clock.advance(Duration.ofDays(2).plusMillis(1));

        assertThat(queue.runRetention()).isEqualTo(1);
        assertThat(queue.stats().total()).isZero();
    }

    @Test
    void aLargeBacklogOfFinishedJobsIsDeletedBatchAfterBatchInOneRun() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("bulk").clock(clock)
                .retention(Duration.ZERO, null));
        int jobs = 1_234;
        queue.putMany(IntStream.range(0, jobs).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        for (int i = 0; i < jobs; i++) {
            queue.ack(queue.getNowait());
        }
        clock.advance(Duration.ofMillis(1));

        assertThat(queue.runRetention()).isEqualTo(jobs);
        assertThat(queue.stats().total()).isZero();
        assertThat(queue.diagnostics().retentionLastDeleted()).isEqualTo(jobs);
        assertThat(queue.diagnostics().retentionLastRunAt()).isEqualTo(clock.instant());
    }

    @Test
    void withTwoQueueObjectsOfOneQueueTheLongerRetentionApplies() {
        SimpleQueue<Object> shortLived = open(SimpleQueue.builder(database()).name("shared").clock(clock)
                .retention(Duration.ofMinutes(1), Duration.ZERO));
        SimpleQueue<Object> longLived = open(SimpleQueue.builder(database()).name("shared").clock(clock)
                .retention(Duration.ofHours(1), null));
        shortLived.put("acked");
        shortLived.ack(shortLived.getNowait());
        longLived.put("failed");
        longLived.fail(longLived.getNowait(), "dead");
        clock.advance(Duration.ofMinutes(2));

        assertThat(shortLived.runRetention()).isZero();
        longLived.close();
        assertThat(shortLived.runRetention()).as("once the longer one closed").isEqualTo(2);
    }

    @Test
    void badRetentionsAreRefusedByName() {
        SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database());
        assertThatThrownBy(() -> builder.retention(Duration.ofSeconds(-1), null))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("acked");
        assertThatThrownBy(() -> builder.retention(null, null))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("acked");
        assertThatThrownBy(() -> builder.retention(Duration.ZERO, Duration.ofMillis(-1)))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("failed");
    }

    /**
     * Random puts, claims, acknowledgements, retries, dead letters, replays, clock moves and retention runs against a
     * model of which jobs exist: no run deletes a pending or leased job, and each deletes exactly the finished jobs
     * older than the retention.
     */
    @Test
    void retentionNeverDeletesAPendingOrLeasedJobAgainstAModel() {
        long seed = Long.getLong("localqueue.test.seed", System.nanoTime());
        System.out.println("RetentionTest seed: " + seed + " (replay with -Dlocalqueue.test.seed=" + seed + ")");
        Random random = new Random(seed);
        Duration ackedKept = Duration.ofSeconds(5);
        Duration failedKept = Duration.ofSeconds(8);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("model").clock(clock)
                .delivery(DeliveryPolicy.defaults().withMaxRetries(1_000).withLease(Duration.ofMinutes(30)))
                .retention(ackedKept, failedKept));
        Map<Long, Long> finishedAt = new HashMap<>();
        Map<Long, Boolean> finishedFailed = new HashMap<>();
        Set<Long> pending = new HashSet<>();
        List<Job<Object>> leased = new ArrayList<>();
        for (int step = 0; step < 600; step++) {
            long now = clock.millis();
            int action = random.nextInt(12);
            if (action < 3) {
                pending.addAll(queue.putMany(IntStream.range(0, 1 + random.nextInt(4))
                        .mapToObj(i -> EnqueueItem.<Object>of("job")).toList()));
            } else if (action < 5) {
                try {
                    leased.add(queue.getNowait());
                } catch (QueueEmptyException empty) {
                    // nothing due
                }
            } else if (action < 8 && !leased.isEmpty()) {
                Job<Object> job = leased.remove(random.nextInt(leased.size()));
                int settle = random.nextInt(3);
                if (settle == 0) {
                    queue.ack(job);
                    pending.remove(job.id());
                    finishedAt.put(job.id(), now);
                    finishedFailed.put(job.id(), false);
                } else if (settle == 1) {
                    queue.nack(job, Duration.ofMillis(random.nextInt(2_000)), null);
                } else {
                    queue.fail(job, "dead");
                    pending.remove(job.id());
                    finishedAt.put(job.id(), now);
                    finishedFailed.put(job.id(), true);
                }
            } else if (action == 8 && finishedFailed.containsValue(true)) {
                long replayed = finishedFailed.entrySet().stream().filter(Map.Entry::getValue).findFirst()
                        .orElseThrow().getKey();
                queue.retryFailed(replayed);
                finishedAt.remove(replayed);
                finishedFailed.remove(replayed);
                pending.add(replayed);
            } else if (action < 11) {
                clock.advance(Duration.ofMillis(random.nextInt(3_000)));
            } else {
                long expected = finishedAt.entrySet().stream().filter(entry -> now - entry.getValue()
                        > (finishedFailed.get(entry.getKey()) ? failedKept : ackedKept).toMillis()).count();
                assertThat(queue.runRetention()).as("seed %d, step %d: deleted", seed, step)
                        .isEqualTo(expected);
                finishedAt.entrySet().removeIf(entry -> now - entry.getValue()
                        > (finishedFailed.get(entry.getKey()) ? failedKept : ackedKept).toMillis());
                finishedFailed.keySet().retainAll(finishedAt.keySet());
            }
            QueueStats stats = queue.stats();
            assertThat(stats.ready() + stats.processing()).as("seed %d, step %d: pending jobs", seed, step)
                    .isEqualTo(pending.size());
            assertThat(stats.processing()).isEqualTo(leased.size());
            assertThat(stats.acked() + stats.failed()).as("seed %d, step %d: finished jobs", seed, step)
                    .isEqualTo(finishedAt.size());
        }
    }
}
