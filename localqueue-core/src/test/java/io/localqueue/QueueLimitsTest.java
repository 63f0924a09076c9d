package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.QueueLimits;
import io.localqueue.storage.RawSqlite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A queue's limits: how many jobs run at once, how many of one concurrency key, and how many claims a period holds.
 * Each is the queue's, obeyed by every queue object on the store; a job over a limit stays ready and spends no
 * attempt, and the slot is the lease, so settling or an expired lease frees it.
 */
class QueueLimitsTest extends QueueTestBase {

    private static final EnqueueOptions NO_OPTIONS = EnqueueOptions.defaults();

    private static EnqueueOptions key(String key) {
        return EnqueueOptions.defaults().concurrencyKey(key);
    }

    private SimpleQueue<Object> queue(SimpleQueue.Builder<Object> builder) {
        return open(builder.name("exports").clock(clock));
    }

    @Test
    void maxConcurrentLeasesNoMoreThanItsLimitAndASettledJobFreesItsSlot() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrent(2));
        for (int i = 0; i < 5; i++) {
            queue.put("job " + i);
        }
        Job<Object> first = queue.getNowait();
        Job<Object> second = queue.getNowait();

        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                .hasMessageContaining("maxConcurrent jobs are running");
        assertThat(queue.stats().ready()).isEqualTo(3);
        assertThat(queue.claimsHeldBy(QueueLimit.MAX_CONCURRENT)).as("one refused getNowait, one claim").isEqualTo(1);
        assertThat(queue.claimsHeldBy(QueueLimit.RATE_LIMIT)).isZero();

        queue.ack(first);
        Job<Object> third = queue.getNowait();
        assertThat(third.attempts()).isZero();
        queue.nack(second);
        queue.fail(third);
        assertThat(List.of(queue.getNowait().data(), queue.getNowait().data())).containsExactly("job 1", "job 3");
    }

    @Test
    void anExpiredLeaseFreesItsSlot() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrent(1)
                .delivery(DeliveryPolicy.defaults().withLease(Duration.ofSeconds(30))));
        queue.put("stuck");
        queue.put("next");
        queue.getNowait();
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);

        clock.advance(Duration.ofSeconds(31));

        assertThat(queue.getNowait().data()).isEqualTo("stuck");
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
    }

    @Test
    void theLimitIsTheQueuesSoAQueueObjectWithoutOneObeysItAndTheLastOpenedWins() {
        SimpleQueue<Object> limited = queue(SimpleQueue.builder(database()).maxConcurrent(1));
        SimpleQueue<Object> plain = queue(SimpleQueue.builder(database()));
        for (int i = 0; i < 4; i++) {
            plain.put(i);
        }
        limited.getNowait();
        assertThatThrownBy(plain::getNowait).as("a queue object built without the limit obeys it")
                .isInstanceOf(QueueEmptyException.class);

        SimpleQueue<Object> raising = queue(SimpleQueue.builder(database()).maxConcurrent(2));
        raising.getNowait();
        assertThatThrownBy(limited::getNowait).isInstanceOf(QueueEmptyException.class);
        assertThat(limited.diagnostics().maxConcurrent()).isEqualTo(2);

        queue(SimpleQueue.builder(database()).maxConcurrent(0));
        assertThat(limited.getNowait()).isNotNull();
        assertThat(limited.diagnostics().maxConcurrent()).isNull();
    }

    @Test
    void aFullKeyHoldsOnlyItsOwnJobsWhileOtherKeysAndKeylessJobsRunInOrder() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(1));
        queue.put("a1", null, key("a"));
        queue.put("a2", null, key("a"));
        queue.put("a3", null, key("a"));
        queue.put("b1", null, key("b"));
        queue.put("none", null, NO_OPTIONS);
        queue.put("b2", null, key("b"));

        List<Job<Object>> batch = DueJobs.claimAll(queue);

        assertThat(batch).extracting(Job::data).containsExactly("a1", "b1", "none");
        assertThat(queue.diagnostics().heldJobs()).isEqualTo(3);
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                .hasMessageContaining("maxConcurrentPerKey");

        queue.ack(batch.get(0));
        Job<Object> a2 = queue.getNowait();
        assertThat(a2.data()).isEqualTo("a2");
        assertThat(a2.attempts()).as("holding spends no attempt").isZero();
        assertThat(a2.concurrencyKey()).isEqualTo("a");
        assertThat(a2.priority()).isZero();
        queue.nack(batch.get(1));
        assertThat(queue.getNowait().data()).isEqualTo("b1");
    }

    @Test
    void heldJobsKeepTheirPriorityAndComeBackInClaimOrder() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(2));
        queue.put("a-low", null, key("a").priority(5));
        queue.put("a-urgent", null, key("a").priority(-5));
        queue.put("a-mid", null, key("a"));
        queue.put("a-urgent-2", null, key("a").priority(-5));
        queue.put("b", null, key("b").priority(7));

        List<Job<Object>> first = DueJobs.claimAll(queue);
        assertThat(first).extracting(Job::data).containsExactly("a-urgent", "a-urgent-2", "b");
        assertThat(queue.listReady(10, 0)).extracting(ReadyJob::priority).containsExactlyInAnyOrder(0, 5);

        queue.ack(first.get(0));
        queue.ack(first.get(1));
        List<Job<Object>> second = DueJobs.claimAll(queue);
        assertThat(second).extracting(Job::data).containsExactly("a-mid", "a-low");
        assertThat(second).extracting(Job::priority).containsExactly(0, 5);
    }

    @Test
    void aLongBacklogOfOneFullKeyLeavesTheClaimOrderOnceAndTheOthersAreClaimedPastIt() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(1));
        List<EnqueueItem<Object>> backlog = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            backlog.add(EnqueueItem.of((Object) ("a" + i)).withOptions(key("a")));
        }
        queue.putMany(backlog);
        queue.put("b", null, key("b"));

        Job<Object> a0 = queue.getNowait();
        assertThat(a0.data()).isEqualTo("a0");
        assertThat(queue.getNowait().data()).isEqualTo("b");
        assertThat(queue.diagnostics().heldJobs()).as("held in steps, none walked twice").isGreaterThan(1_000);
        queue.put("c", null, key("c"));
        assertThat(queue.getNowait().data()).isEqualTo("c");

        queue.ack(a0);
        assertThat(queue.getNowait().data()).isEqualTo("a1");
    }

    @Test
    void liftingThePerKeyLimitPutsHeldJobsBackInLine() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(1));
        queue.put("a1", null, key("a"));
        queue.put("a2", null, key("a"));
        DueJobs.claimAll(queue);
        assertThat(queue.diagnostics().heldJobs()).isEqualTo(1);

        SimpleQueue<Object> lifted = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(0));

        assertThat(lifted.diagnostics().heldJobs()).isZero();
        assertThat(lifted.getNowait().data()).isEqualTo("a2");
    }

    @Test
    void aQueueObjectWithoutTheLimitReachesHeldJobsAfterEveryOther() {
        SimpleQueue<Object> limited = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(1));
        limited.put("a1", null, key("a"));
        limited.put("a2", null, key("a"));
        DueJobs.claimAll(limited);
        assertThat(limited.diagnostics().heldJobs()).isEqualTo(1);

        SimpleQueue<Object> lifted = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(0));
        lifted.put("x");
        assertThat(DueJobs.claimAll(lifted)).extracting(Job::data).containsExactly("a2", "x");
    }

    @Test
    void theRateLimitHoldsAtMostItsPermitsInAnyWindowOfThePeriodRedeliveriesIncluded() {
        // A period of 6.4 s is logged in parts of 100 ms; the test clock starts on a part's first millisecond.
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).rateLimit(3, Duration.ofMillis(6_400)));
        for (int i = 0; i < 10; i++) {
            queue.put(i);
        }
        queue.getNowait();
        clock.advance(Duration.ofSeconds(4));
        queue.nack(queue.getNowait());
        Job<Object> redelivered = queue.getNowait();
        assertThat(redelivered.attempts()).isEqualTo(1);
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                .hasMessageContaining("rate limit");

        clock.advance(Duration.ofMillis(2_498));
        assertThatThrownBy(queue::getNowait).as("a period has not passed since the end of the first claim's part")
                .isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMillis(1));
        assertThat(DueJobs.claimAll(queue)).as("the first claim left the window; the other two are 2.5 s old")
                .hasSize(1);
        clock.advance(Duration.ofMillis(3_999));
        assertThat(DueJobs.claimAll(queue)).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(DueJobs.claimAll(queue)).hasSize(2);
    }

    @Test
    void aClaimCountsUntilAPeriodHasPassedSinceTheEndOfItsPartAndNoLonger() {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).rateLimit(1, Duration.ofMillis(6_400)));
        for (int i = 0; i < 3; i++) {
            queue.put(i);
        }
        clock.advance(Duration.ofMillis(99));
        queue.getNowait(); // the last millisecond of its part: it counts for exactly a period

        clock.advance(Duration.ofMillis(6_399));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMillis(1));
        assertThat(queue.getNowait().data()).isEqualTo(1);
        assertThat(QueueLimits.NONE.rateLogTime(7)).as("a period too short for parts logs each millisecond")
                .isEqualTo(7);
        assertThat(new QueueLimits(0, 0, 1, 6_400).rateLogTime(-1)).as("parts count from the epoch")
                .isEqualTo(-1);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void theRateLogKeepsOnlyTheEntriesItsCountsNeed() throws Exception {
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).rateLimit(5, Duration.ofSeconds(1)));
        for (int i = 0; i < 200; i++) {
            queue.put(i);
        }
        int claimed = 0;
        for (int step = 0; step < 30; step++) {
            List<Job<Object>> jobs = DueJobs.claimAll(queue);
            jobs.forEach(queue::ack);
            claimed += jobs.size();
            clock.advance(Duration.ofMillis(265));
        }

        assertThat(claimed).as("5 claims in each period of 1 s and 15 ms, the part of the period a claim is logged in")
                .isEqualTo(40);
        assertThat(RawSqlite.query(dir.resolve(LocalQueueDatabase.FILE_NAME), "SELECT COUNT(*) AS n FROM queue_claims"))
                .singleElement().satisfies(row -> assertThat((Long) row.get("n")).isBetween(1L, 4L));
    }

    @Test
    void aConsumerWaitingOnTheRateLimitSleepsUntilTheNextPermit() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("paced")
                .rateLimit(1, Duration.ofMillis(300)));
        queue.put("first");
        queue.put("second");
        long start = System.nanoTime();
        queue.get(Duration.ofSeconds(5));
        Job<Object> second = queue.get(Duration.ofSeconds(5));
        long waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

        assertThat(second.data()).isEqualTo("second");
        assertThat(waitedMillis).isGreaterThanOrEqualTo(290);
        assertThat(queue.diagnostics().toMap()).containsEntry("rate_limit_permits", 1);
    }

    @Test
    void heldJobsAreMarkedPastEveryPriorityAJobCanHave() {
        assertThat(HeldPriority.CLAIMABLE).isEqualTo(EnqueueOptions.LOWEST_PRIORITY);
        assertThat(EnqueueOptions.HIGHEST_PRIORITY + HeldPriority.SHIFT).isGreaterThan(HeldPriority.CLAIMABLE);
        assertThat(HeldPriority.CLAIMABLE + HeldPriority.SHIFT).isLessThanOrEqualTo(Short.MAX_VALUE);
    }

    @Test
    void badLimitsAreRefusedNamingTheParameter() {
        SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database());
        assertThatThrownBy(() -> builder.maxConcurrent(-1)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("maxConcurrent");
        assertThatThrownBy(() -> builder.maxConcurrentPerKey(-2)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("maxConcurrentPerKey");
        assertThatThrownBy(() -> builder.rateLimit(-1, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("permits");
        assertThatThrownBy(() -> builder.rateLimit(5, Duration.ZERO)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("period");
        assertThatThrownBy(() -> builder.rateLimit(5, null)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("period");
        assertThatThrownBy(() -> builder.rateLimit(5, Duration.ofNanos(1_500_000)))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("whole number of milliseconds")
                .hasMessageContaining("PT0.0015S");
    }

    /**
     * Random puts (keys, priorities, delays), claims, acknowledgements, releases with delays, dead letters and retries
     * against a model whose next claim is the due job of smallest (priority, due time, id) whose key has a free slot,
     * while the queue has one; {@code -Dlocalqueue.test.steps} runs a longer walk.
     */
    @Test
    void claimsFollowTheModelOfClaimOrderWithinTheLimits() {
        long seed = Long.getLong("localqueue.test.seed", System.nanoTime());
        System.out.println("QueueLimitsTest seed: " + seed + " (replay with -Dlocalqueue.test.seed=" + seed + ")");
        Random random = new Random(seed);
        int perKey = 1 + random.nextInt(2);
        int maxConcurrent = random.nextBoolean() ? 0 : 3 + random.nextInt(3);
        SimpleQueue<Object> queue = queue(SimpleQueue.builder(database()).maxConcurrentPerKey(perKey)
                .maxConcurrent(maxConcurrent).delivery(new DeliveryPolicy(Duration.ofDays(1), 100)));
        List<ModelJob> waiting = new ArrayList<>();
        List<Job<Object>> leased = new ArrayList<>();
        Map<Long, ModelJob> byId = new HashMap<>();
        String[] keys = {null, "a", "b", "c"};
        int steps = Integer.getInteger("localqueue.test.steps", 500);
        for (int step = 0; step < steps; step++) {
            long now = clock.instant().toEpochMilli();
            int action = random.nextInt(12);
            if (action < 4) {
                int priority = random.nextInt(3) - 1;
                long delay = random.nextInt(3) == 0 ? random.nextInt(2_000) : 0;
                String key = keys[random.nextInt(keys.length)];
                EnqueueOptions options = EnqueueOptions.defaults().delay(Duration.ofMillis(delay)).priority(priority);
                long id = queue.put("job", null, key == null ? options : options.concurrencyKey(key));
                ModelJob job = new ModelJob(id, priority, now + delay, key);
                waiting.add(job);
                byId.put(id, job);
            } else if (action < 8) {
                Map<String, Long> running = leased.stream().filter(job -> job.concurrencyKey() != null)
                        .collect(Collectors.groupingBy(Job::concurrencyKey, Collectors.counting()));
                boolean queueFull = maxConcurrent > 0 && leased.size() >= maxConcurrent;
                ModelJob expected = queueFull ? null : waiting.stream().filter(job -> job.dueAt <= now)
                        .filter(job -> job.key == null || running.getOrDefault(job.key, 0L) < perKey)
                        .min(Comparator.comparingInt(ModelJob::priority).thenComparingLong(ModelJob::dueAt)
                                .thenComparingLong(ModelJob::id)).orElse(null);
                if (expected == null) {
                    assertThatThrownBy(queue::getNowait).as("seed %d, step %d", seed, step)
                            .isInstanceOf(QueueEmptyException.class);
                    continue;
                }
                Job<Object> job = queue.getNowait();
                assertThat(job.id()).as("seed %d, step %d: the claim of %s with %s leased", seed, step, waiting,
                        leased.stream().map(Job::id).toList()).isEqualTo(expected.id);
                assertThat(job.priority()).isEqualTo(expected.priority);
                assertThat(job.concurrencyKey()).isEqualTo(expected.key);
                waiting.remove(expected);
                leased.add(job);
            } else if (action < 11 && !leased.isEmpty()) {
                Job<Object> job = leased.remove(random.nextInt(leased.size()));
                ModelJob model = byId.get(job.id());
                int settle = random.nextInt(3);
                if (settle == 0) {
                    queue.ack(job);
                } else if (settle == 1) {
                    long delay = random.nextInt(2) == 0 ? 0 : random.nextInt(1_500);
                    queue.nack(job, Duration.ofMillis(delay), null);
                    ModelJob back = delay == 0 ? model : model.dueAt(now + delay); // without a delay it keeps its place
                    waiting.add(back);
                    byId.put(back.id, back);
                } else {
                    queue.fail(job, "dead");
                    queue.retryFailed(job.id());
                    waiting.add(model.dueAt(now));
                    byId.put(model.id, model.dueAt(now));
                }
            } else {
                clock.advance(Duration.ofMillis(random.nextInt(700)));
            }
        }
    }

    private record ModelJob(long id, int priority, long dueAt, @Nullable String key) {
        ModelJob dueAt(long newDueAt) {
            return new ModelJob(id, priority, newDueAt, key);
        }
    }
}
