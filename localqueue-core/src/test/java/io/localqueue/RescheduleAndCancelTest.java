package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Rescheduling and cancelling act on a job still waiting in its queue, report whether they did, and leave a leased,
 * finished, foreign or unknown job alone; against a claim, exactly one of them wins.
 */
class RescheduleAndCancelTest extends QueueTestBase {

    @Test
    void aWaitingJobIsMovedLaterOrEarlierAndAPastInstantMakesItDueAtOnce() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long id = queue.put("job", null, EnqueueOptions.defaults().priority(4).delay(Duration.ofMinutes(10)));

        assertThat(queue.reschedule(id, clock.instant().plusSeconds(30))).isTrue();
        assertThat(queue.listReady(1, 0).get(0).availableAt()).isEqualTo(clock.instant().plusSeconds(30));
        clock.advance(Duration.ofSeconds(29));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);

        assertThat(queue.reschedule(id, clock.instant().minusSeconds(3600))).isTrue();
        Job<Object> job = queue.getNowait();
        assertThat(job.id()).isEqualTo(id);
        assertThat(job.dueAt()).isEqualTo(clock.instant());
        assertThat(job.priority()).as("kept").isEqualTo(4);
    }

    @Test
    void aCancelledJobIsGoneWithItsHeadersAndItsJobIdIsFreeAgain() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long id = queue.putMany(List.of(EnqueueItem.<Object>of("job", "order-7")
                .withHeaders(Map.of("trace", "abc")).withOptions(EnqueueOptions.defaults().delay(Duration.ofHours(1)))))
                .get(0);

        assertThat(queue.cancel(id)).isTrue();
        assertThat(queue.cancel(id)).as("a second time").isFalse();
        assertThat(queue.stats().total()).isZero();
        long again = queue.put("again", "order-7");
        assertThat(again).isNotEqualTo(id);
        assertThat(queue.getNowait().headers()).isEmpty();
    }

    @Test
    void aLeasedFinishedForeignOrUnknownJobIsLeftAlone() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        SimpleQueue<Object> other = open(SimpleQueue.builder(database()).name("other").clock(clock));
        long leased = queue.put("leased");
        long acked = queue.put("acked");
        long failed = queue.put("failed");
        long foreign = other.put("foreign");
        Job<Object> lease = queue.getNowait();
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait(), "dead");

        for (long id : List.of(leased, acked, failed, foreign, 999_999L)) {
            assertThat(queue.reschedule(id, clock.instant().plusSeconds(60))).as("reschedule %d", id).isFalse();
            assertThat(queue.cancel(id)).as("cancel %d", id).isFalse();
        }
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 1, 1));
        assertThat(other.stats().ready()).isEqualTo(1);
        queue.ack(lease);
    }

    @Test
    void aDueTimeBeyondWhatAQueueCanStoreIsRefusedNamingRunAtAndTheJobKeepsItsOwn() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long id = queue.put("waiting", null, EnqueueOptions.defaults().delay(Duration.ofMinutes(5)));

        for (Instant tooFar : List.of(Instant.MAX, Instant.MIN)) {
            assertThatThrownBy(() -> queue.reschedule(id, tooFar))
                    .isInstanceOfSatisfying(InvalidArgumentException.class,
                            refused -> assertThat(refused.parameter()).isEqualTo("runAt"))
                    .hasMessageContaining("runAt lies beyond what a queue can store");
        }
        assertThatThrownBy(() -> queue.reschedule(id, null))
                .isInstanceOfSatisfying(InvalidArgumentException.class,
                        refused -> assertThat(refused.parameter()).isEqualTo("runAt"));
        assertThat(queue.listReady(10, 0)).singleElement().satisfies(job -> assertThat(job.availableAt())
                .isEqualTo(clock.instant().plus(Duration.ofMinutes(5))));
    }

    @Test
    void aWaitingConsumerWakesForAJobRescheduledEarlier() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(Clock.systemUTC()));
        long id = queue.put("much later", null, EnqueueOptions.defaults().delay(Duration.ofHours(1)));
        CompletableFuture<Job<Object>> waiting = CompletableFuture.supplyAsync(() -> queue.get(Duration.ofSeconds(20)));
        Thread.sleep(100);
        Instant due = Instant.now().plusMillis(300);

        assertThat(queue.reschedule(id, due)).isTrue();

        Job<Object> job = waiting.get(20, TimeUnit.SECONDS);
        assertThat(job.id()).isEqualTo(id);
        assertThat(Instant.now()).isAfterOrEqualTo(due);
    }

    @Test
    void againstAClaimExactlyOneOfCancelAndClaimWins() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("race").clock(clock));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 40; round++) {
                long id = queue.put("contested");
                boolean cancelling = round % 2 == 0;
                CountDownLatch start = new CountDownLatch(1);
                Future<Boolean> claimed = threads.submit(() -> {
                    start.await();
                    try {
                        queue.ack(queue.getNowait());
                        return true;
                    } catch (QueueEmptyException nothing) {
                        return false;
                    }
                });
                Future<Boolean> cancelled = threads.submit(() -> {
                    start.await();
                    return cancelling ? queue.cancel(id) : queue.reschedule(id, clock.instant().plusSeconds(60));
                });
                start.countDown();

                assertThat(claimed.get(20, TimeUnit.SECONDS) ^ cancelled.get(20, TimeUnit.SECONDS))
                        .as("round %d: exactly one wins", round).isTrue();
                queue.cancel(id);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
