package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.internal.store.ClaimedRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Priorities: among due jobs the smaller priority is claimed first, then the earlier due time, then the earlier put;
 * a job not yet due never holds back a due one; a job keeps its priority on every delivery and in every listing.
 */
class PrioritiesTest extends QueueTestBase {

    private static final BooleanSupplier NEVER = () -> false;

    @Test
    void aSmallerPriorityIsClaimedFirstAndEqualPrioritiesGoByDueTimeThenPut() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock));
        long urgentDueLater = queue.put("urgent, due later", null,
                EnqueueOptions.defaults().priority(-5).delay(Duration.ofSeconds(1)));
        long plain = queue.put("plain", null);
        long low = queue.put("low", null, EnqueueOptions.defaults().priority(10));
        long urgent = queue.put("urgent", null, EnqueueOptions.defaults().priority(-5));
        long urgentPutLater = queue.put("urgent, put later", null, EnqueueOptions.defaults().priority(-5));
        long plainAgain = queue.put("plain again", null, EnqueueOptions.defaults().priority(0));
        clock.advance(Duration.ofSeconds(2));

        assertThat(drain(queue)).containsExactly(urgent, urgentPutLater, urgentDueLater, plain, plainAgain, low);
    }

    @Test
    void aDueJobIsNeverHeldBackByAJobOfHigherPriorityThatIsNotYetDue() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock));
        long later = queue.put("urgent but later", null,
                EnqueueOptions.defaults().priority(-1000).delay(Duration.ofMinutes(1)));
        long due = queue.put("due now", null, EnqueueOptions.defaults().priority(1000));

        assertThat(drain(queue)).containsExactly(due);
        clock.advance(Duration.ofMinutes(1));
        assertThat(drain(queue)).containsExactly(later);
    }

    @Test
    void jobsPutBeforeTheQueuesFirstPriorityTakeTheDefaultOne() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock));
        List<Long> before = queue.putMany(List.of(EnqueueItem.of("a"), EnqueueItem.of("b"), EnqueueItem.of("c")));
        long late = queue.put("late", null, EnqueueOptions.defaults().priority(1));
        long early = queue.put("early", null, EnqueueOptions.defaults().priority(-1));
        List<Long> after = queue.putMany(List.of(EnqueueItem.of("d"), EnqueueItem.of("e")));

        List<Long> expected = new ArrayList<>(List.of(early));
        expected.addAll(before);
        expected.addAll(after);
        expected.add(late);
        assertThat(drain(queue)).containsExactlyElementsOf(expected);
    }

    @Test
    void aBatchClaimTakesTheMostUrgentDueJobsInClaimOrder() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock));
        List<Long> ids = queue.putMany(List.of(
                EnqueueItem.<Object>of("p3").withOptions(EnqueueOptions.defaults().priority(3)),
                EnqueueItem.<Object>of("p1").withOptions(EnqueueOptions.defaults().priority(1)),
                EnqueueItem.<Object>of("p2").withOptions(EnqueueOptions.defaults().priority(2)),
                EnqueueItem.<Object>of("p1 again").withOptions(EnqueueOptions.defaults().priority(1)),
                EnqueueItem.<Object>of("p0 later").withOptions(
                        EnqueueOptions.defaults().delay(Duration.ofSeconds(5)))));

        List<ClaimedRow> batch = queue.jobs().engine().claim(0, 3, NEVER);

        assertThat(batch).extracting(ClaimedRow::id).containsExactly(ids.get(1), ids.get(3), ids.get(2));
        assertThat(batch).extracting(ClaimedRow::priority).containsExactly(1, 1, 2);
    }

    @Test
    void aJobShowsItsPriorityDueTimeAndKeyOnEveryDeliveryAndInEveryListing() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock)
                .delivery(DeliveryPolicy.defaults().withMaxRetries(1)));
        EnqueueOptions options = EnqueueOptions.defaults().priority(-7).concurrencyKey("customer-42")
                .delay(Duration.ofSeconds(2));
        long id = queue.put("job", null, options);

        ReadyJob<Object> waiting = queue.listReady(10, 0).get(0);
        assertThat(waiting.priority()).isEqualTo(-7);
        assertThat(waiting.concurrencyKey()).isEqualTo("customer-42");
        assertThat(waiting.availableAt()).isEqualTo(clock.instant().plusSeconds(2));

        clock.advance(Duration.ofSeconds(3));
        Job<Object> first = queue.getNowait();
        assertThat(first.id()).isEqualTo(id);
        assertThat(first.priority()).isEqualTo(-7);
        assertThat(first.concurrencyKey()).isEqualTo("customer-42");
        assertThat(first.dueAt()).isEqualTo(clock.instant().minusSeconds(1));

        queue.nack(first, Duration.ofSeconds(4), "try later");
        clock.advance(Duration.ofSeconds(4));
        Job<Object> second = queue.getNowait();
        assertThat(second.priority()).isEqualTo(-7);
        assertThat(second.concurrencyKey()).isEqualTo("customer-42");
        assertThat(second.dueAt()).isEqualTo(clock.instant());

        queue.fail(second, "gave up");
        FailedMessage<Object> dead = queue.listFailed().get(0);
        assertThat(dead.priority()).isEqualTo(-7);
        assertThat(dead.concurrencyKey()).isEqualTo("customer-42");
        queue.retryFailed(id);
        assertThat(queue.getNowait().priority()).as("kept by a retried dead letter").isEqualTo(-7);
    }

    @Test
    void aPlainJobShowsTheDefaultPriorityNoKeyAndItsPutAsItsDueTime() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock));
        queue.put("plain");

        Job<Object> job = queue.getNowait();

        assertThat(job.priority()).isZero();
        assertThat(job.concurrencyKey()).isNull();
        assertThat(job.dueAt()).isEqualTo(clock.instant());
    }

    @Test
    void listReadyPagesInClaimOrder() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("work").clock(clock));
        long plain = queue.put("plain");
        long low = queue.put("low", null, EnqueueOptions.defaults().priority(5));
        long urgent = queue.put("urgent", null, EnqueueOptions.defaults().priority(-5));
        long plainAgain = queue.put("plain again");

        assertThat(queue.listReady(10, 0)).extracting(ReadyJob::id).containsExactly(urgent, plain, plainAgain, low);
        assertThat(queue.listReady(2, 1)).extracting(ReadyJob::id).containsExactly(plain, plainAgain);
    }

    @Test
    void aPriorityOutsideItsRangeIsRefusedByName() {
        assertThatThrownBy(() -> EnqueueOptions.defaults().priority(1001))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority")
                .hasMessageContaining("1001");
        assertThatThrownBy(() -> EnqueueOptions.defaults().priority(-1001))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority");
        assertThatThrownBy(() -> EnqueueOptions.defaults().concurrencyKey(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrencyKey");
        assertThatThrownBy(() -> EnqueueOptions.defaults().concurrencyKey(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrencyKey must not be blank");
        String longest = "k".repeat(EnqueueOptions.MAX_CONCURRENCY_KEY_LENGTH);
        assertThat(EnqueueOptions.defaults().concurrencyKey(longest).concurrencyKey()).isEqualTo(longest);
        assertThatThrownBy(() -> EnqueueOptions.defaults().concurrencyKey(longest + "k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrencyKey must be at most");
        assertThat(EnqueueOptions.defaults().priority(-1000).priority(1000).priority()).isEqualTo(1000);
    }

    /**
     * Random puts (priorities, delays, batches), claims, nacks with delays, dead letters and retries against a
     * model whose next claim is the due job of smallest (priority, due time, id).
     */
    @Test
    void claimsFollowTheModelOfPriorityThenDueTimeThenId() {
        long seed = Long.getLong("localqueue.test.seed", System.nanoTime());
        System.out.println("PrioritiesTest seed: " + seed + " (replay with -Dlocalqueue.test.seed=" + seed + ")");
        Random random = new Random(seed);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("model").clock(clock)
                .delivery(DeliveryPolicy.defaults().withMaxRetries(100)));
        List<ModelJob> waiting = new ArrayList<>();
        for (int step = 0; step < 400; step++) {
            long now = clock.instant().toEpochMilli();
            int action = random.nextInt(10);
            if (action < 4) {
                int count = 1 + random.nextInt(3);
                List<EnqueueItem<Object>> items = new ArrayList<>();
                List<ModelJob> added = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    int priority = random.nextInt(4) == 0 ? 0 : random.nextInt(11) - 5;
                    long delay = random.nextBoolean() ? 0 : random.nextInt(2_000);
                    EnqueueOptions options = EnqueueOptions.defaults().delay(Duration.ofMillis(delay));
                    options = priority == 0 && random.nextBoolean() ? options : options.priority(priority);
                    items.add(EnqueueItem.<Object>of("job").withOptions(options));
                    added.add(new ModelJob(0, priority, now + delay));
                }
                List<Long> ids = queue.putMany(items);
                for (int i = 0; i < count; i++) {
                    waiting.add(added.get(i).withId(ids.get(i)));
                }
            } else if (action < 8) {
                ModelJob expected = waiting.stream().filter(job -> job.dueAt <= now)
                        .min(Comparator.comparingInt(ModelJob::priority).thenComparingLong(ModelJob::dueAt)
                                .thenComparingLong(ModelJob::id)).orElse(null);
                if (expected == null) {
                    assertThatThrownBy(queue::getNowait).as("seed %d, step %d", seed, step)
                            .isInstanceOf(QueueEmptyException.class);
                    continue;
                }
                Job<Object> job = queue.getNowait();
                assertThat(job.id()).as("seed %d, step %d: the claim of %s", seed, step, waiting)
                        .isEqualTo(expected.id);
                assertThat(job.priority()).isEqualTo(expected.priority);
                waiting.remove(expected);
                int settle = random.nextInt(3);
                if (settle == 0) {
                    queue.ack(job);
                } else if (settle == 1) {
                    long delay = random.nextInt(1_500);
                    queue.nack(job, Duration.ofMillis(delay), null);
                    waiting.add(new ModelJob(expected.id, expected.priority, now + delay));
                } else {
                    queue.fail(job, "dead");
                    queue.retryFailed(job.id());
                    waiting.add(new ModelJob(expected.id, expected.priority, now));
                }
            } else {
                clock.advance(Duration.ofMillis(random.nextInt(700)));
            }
        }
    }

    private static List<Long> drain(SimpleQueue<Object> queue) {
        List<Long> ids = new ArrayList<>();
        while (true) {
            Job<Object> job;
            try {
                job = queue.getNowait();
            } catch (QueueEmptyException empty) {
                return ids;
            }
            ids.add(job.id());
            queue.ack(job);
        }
    }

    private record ModelJob(long id, int priority, long dueAt) {
        ModelJob withId(long newId) {
            return new ModelJob(newId, priority, dueAt);
        }
    }
}
