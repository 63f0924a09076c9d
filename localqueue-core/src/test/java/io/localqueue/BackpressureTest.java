package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackpressureTest extends QueueTestBase {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void maxPendingJobsMustBePositive() {
        SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database());

        assertThatThrownBy(() -> builder.maxPendingJobs(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPendingJobs");
        assertThatThrownBy(() -> builder.maxPendingJobs(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPendingJobs");
        assertThatThrownBy(() -> builder.maxPendingJobs(Long.MIN_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPendingJobs");
    }

    @Test
    void isFullReadsWhetherThePendingJobsReachTheLimitWithoutReservingRoom() {
        SimpleQueue<Object> queue = queue(2);
        SimpleQueue<Object> unlimited = open(SimpleQueue.builder(database()).name("unlimited").clock(clock));
        unlimited.putMany(List.of(EnqueueItem.of("x"), EnqueueItem.of("y"), EnqueueItem.of("z")));

        assertThat(queue.isFull()).isFalse();
        queue.put("a");
        assertThat(queue.isFull()).isFalse();
        queue.put("b");
        Job<Object> leased = queue.getNowait();
        assertThat(queue.isFull()).as("ready plus processing").isTrue();
        assertThat(queue.isFull()).as("a read reserves nothing").isTrue();
        queue.ack(leased);
        assertThat(queue.isFull()).isFalse();
        assertThat(unlimited.isFull()).as("a queue without a limit").isFalse();
    }

    @Test
    void putWithZeroTimeoutOnAFullQueueThrowsAndWritesNothing() {
        SimpleQueue<Object> queue = queue(2);
        queue.put("a");
        queue.put("b");

        assertThatThrownBy(() -> queue.put("c", "job-c", Duration.ZERO)).isInstanceOf(QueueFullException.class);

        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
        queue.ack(queue.getNowait());
        long id = queue.put("c again", "job-c", Duration.ZERO);
        assertThat(queue.getNowait().data()).isEqualTo("b");
        Job<Object> job = queue.getNowait();
        assertThat(job.id()).isEqualTo(id);
        assertThat(job.data()).isEqualTo("c again");
    }

    @Test
    void putWithTimeoutThrowsOnceTheTimeoutPassesWithoutRoom() {
        SimpleQueue<Object> queue = queue(1);
        queue.put("a");
        long start = System.nanoTime();

        assertThatThrownBy(() -> queue.put("b", null, Duration.ofMillis(200))).isInstanceOf(QueueFullException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(190));
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void duplicatesAreAcceptedWhenTheQueueIsFull() {
        SimpleQueue<Object> queue = queue(2);
        long acked = queue.put("acked", "job-acked");
        queue.ack(queue.getNowait());
        long ready = queue.put("ready", "job-ready");
        queue.put("filler");

        assertThat(queue.put("x", "job-ready", Duration.ZERO)).isEqualTo(ready);
        assertThat(queue.put("x", "job-acked", Duration.ZERO)).isEqualTo(acked);
        assertThat(queue.putMany(List.of(EnqueueItem.of("x", "job-ready"), EnqueueItem.of("y", "job-acked")),
                Duration.ZERO)).containsExactly(ready, acked);
        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 1, 0));
    }

    @Test
    void putBlockedOnAFullQueueCompletesWhenAJobIsAcked() throws Exception {
        assertBlockedPutCompletes(queue -> queue.put("b"), SimpleQueue::ack);
    }

    @Test
    void putBlockedOnAFullQueueCompletesWhenAJobFails() throws Exception {
        assertBlockedPutCompletes(queue -> queue.put("b", null, Duration.ofMinutes(5)), SimpleQueue::fail);
    }

    @Test
    void putManyBlockedOnAFullQueueCompletesWhenRoomAppears() throws Exception {
        SimpleQueue<Object> queue = queue(3);
        queue.put("a");
        queue.put("b");
        Threads.Call<List<Long>> blocked = Threads.start("producer",
                () -> queue.putMany(List.of(EnqueueItem.of("c"), EnqueueItem.of("d")))).awaitParked();
        assertThat(blocked.result()).isNotDone();

        queue.ack(queue.getNowait());

        assertThat(blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS))
                .hasSize(2);
        assertThat(queue.stats()).isEqualTo(new QueueStats(3, 0, 1, 0));
    }

    @Test
    void batchLargerThanTheLimitFailsAtOnceAndLeavesTheIdSequenceAlone() {
        SimpleQueue<Object> queue = queue(3);
        long seed = queue.put("seed");
        List<EnqueueItem<Object>> tooMany = IntStream.range(0, 4).mapToObj(i -> EnqueueItem.<Object>of(i)).toList();

        assertTimeoutPreemptively(Threads.BOUND, () -> assertThatThrownBy(
                () -> queue.putMany(tooMany, Duration.ofHours(1))).isInstanceOf(QueueFullException.class));
        assertTimeoutPreemptively(Threads.BOUND, () -> assertThatThrownBy(
                () -> queue.putMany(tooMany)).isInstanceOf(QueueFullException.class));

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(queue.put("next")).isEqualTo(seed + 1);
    }

    @Test
    void batchWithoutRoomFailsAndLeavesTheIdSequenceAlone() {
        SimpleQueue<Object> queue = queue(3);
        long seed = queue.put("seed");
        queue.put("other");

        assertThatThrownBy(() -> queue.putMany(List.of(EnqueueItem.of("x"), EnqueueItem.of("y")), Duration.ZERO))
                .isInstanceOf(QueueFullException.class);

        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
        assertThat(queue.put("next")).isEqualTo(seed + 2);
    }

    @Test
    void duplicateInsideABatchTakesOneSlot() {
        SimpleQueue<Object> queue = queue(2);

        List<Long> ids = queue.putMany(List.of(EnqueueItem.of("a", "job-1"), EnqueueItem.of("b", "job-1"),
                EnqueueItem.of("c")), Duration.ZERO);

        assertThat(ids.get(0)).isEqualTo(ids.get(1));
        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
    }

    @Test
    void batchCountsOnlyJobsMissingFromStorageAgainstTheLimit() {
        SimpleQueue<Object> queue = queue(2);
        long stored = queue.put("stored", "job-1");

        List<Long> ids = queue.putMany(List.of(EnqueueItem.of("dup", "job-1"), EnqueueItem.of("new")),
                Duration.ZERO);

        assertThat(ids.get(0)).isEqualTo(stored);
        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
    }

    @Test
    void largestLimitBehavesLikeNoLimit() {
        SimpleQueue<Object> queue = queue(Long.MAX_VALUE);

        queue.putMany(List.of(EnqueueItem.of("a"), EnqueueItem.of("b")), Duration.ZERO);
        long failed = queue.put("c", null, Duration.ZERO);
        queue.getNowait();
        queue.getNowait();
        queue.fail(queue.getNowait());
        queue.retryFailed(failed);

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 2, 0, 0));
    }

    @Test
    void delayedAndProcessingJobsCountAsPending() {
        SimpleQueue<Object> queue = queue(2);
        queue.put("processing");
        queue.put("delayed");
        queue.getNowait();
        queue.nack(queue.getNowait(), Duration.ofHours(1), null);

        assertThatThrownBy(() -> queue.put("c", null, Duration.ZERO)).isInstanceOf(QueueFullException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 1, 0, 0));
    }

    @Test
    void expiredButUnreclaimedLeaseCountsAsPending() {
        SimpleQueue<Object> queue = queue(1);
        queue.put("a");
        queue.getNowait();
        clock.advance(LEASE.multipliedBy(2));

        assertThatThrownBy(() -> queue.put("b", null, Duration.ZERO)).isInstanceOf(QueueFullException.class);
    }

    @Test
    void ackedAndFailedJobsFreeTheirSlots() {
        SimpleQueue<Object> queue = queue(2);
        queue.put("a");
        queue.put("b");

        queue.ack(queue.getNowait());
        queue.put("c", null, Duration.ZERO);
        queue.fail(queue.getNowait());
        queue.put("d", null, Duration.ZERO);

        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 1, 1));
    }

    @Test
    void exhaustedLeaseReclaimedToTheDeadLettersFreesItsSlot() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).delivery(new DeliveryPolicy(LEASE, 0))
                .maxPendingJobs(1).clock(clock));
        queue.put("a");
        queue.getNowait();
        clock.advance(LEASE);

        assertThat(queue.reclaimExpiredLeases()).isEqualTo(1);

        queue.put("b", null, Duration.ZERO);
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 1));
    }

    @Test
    void retryFailedNeedsASlot() {
        SimpleQueue<Object> queue = queue(1);
        long failed = queue.put("failed");
        queue.fail(queue.getNowait());
        queue.put("filler");

        assertThatThrownBy(() -> queue.retryFailed(failed)).isInstanceOf(QueueFullException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 1));

        queue.ack(queue.getNowait());
        queue.retryFailed(failed);
        assertThat(queue.getNowait().id()).isEqualTo(failed);
    }

    @Test
    void queueAlreadyAboveANewLimitOpensAndStillAcceptsDuplicates() {
        try (SimpleQueue<Object> unlimited = SimpleQueue.builder(database()).clock(clock).build()) {
            for (int i = 0; i < 5; i++) {
                unlimited.put("p" + i, "job-" + i);
            }
        }

        SimpleQueue<Object> limited = queue(2);

        assertThat(limited.stats()).isEqualTo(new QueueStats(5, 0, 0, 0));
        assertThatThrownBy(() -> limited.put("new", null, Duration.ZERO)).isInstanceOf(QueueFullException.class);
        long existing = limited.put("dup", "job-3", Duration.ZERO);
        assertThat(limited.putMany(List.of(EnqueueItem.of("dup", "job-0"), EnqueueItem.of("dup", "job-3")),
                Duration.ZERO)).containsExactly(existing - 3, existing);
        assertThat(limited.stats()).isEqualTo(new QueueStats(5, 0, 0, 0));
    }

    @Test
    void emptyBatchOnAFullQueueReturnsEmptyList() {
        SimpleQueue<Object> queue = queue(1);
        queue.put("a");

        assertThat(queue.putMany(List.of(), Duration.ZERO)).isEmpty();
    }

    @Test
    void limitIsPerQueueName() {
        SimpleQueue<Object> first = queue(1);
        SimpleQueue<Object> second = open(SimpleQueue.builder(database()).name("second").maxPendingJobs(1).clock(clock));
        first.put("a");

        second.put("b", null, Duration.ZERO);

        assertThat(second.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void closeWakesABlockedPutWithQueueClosed() {
        SimpleQueue<Object> queue = queue(1);
        queue.put("a");
        Threads.Call<Long> blocked = Threads.start("producer", () -> queue.put("b")).awaitParked();

        queue.close();

        assertThatThrownBy(() -> blocked.result().get(Threads.BOUND.toSeconds(),
                TimeUnit.SECONDS))
                .cause().isInstanceOf(QueueClosedException.class);
    }

    /**
     * Fills a queue of one with a claimed job, blocks {@code put} on it in another thread, then settles the job and
     * checks that the put completes with the job that is now due.
     */
    private void assertBlockedPutCompletes(Function<SimpleQueue<Object>, Long> put,
                                           BiConsumer<SimpleQueue<Object>, Job<Object>> settle) throws Exception {
        SimpleQueue<Object> queue = queue(1);
        queue.put("a");
        Job<Object> job = queue.getNowait();
        Threads.Call<Long> blocked = Threads.start("producer", () -> put.apply(queue)).awaitParked();
        assertThat(blocked.result()).isNotDone();

        settle.accept(queue, job);

        long id = blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(queue.getNowait().id()).isEqualTo(id);
    }

    private SimpleQueue<Object> queue(long maxPendingJobs) {
        return open(SimpleQueue.builder(database()).delivery(new DeliveryPolicy(LEASE, 3)).maxPendingJobs(maxPendingJobs)
                .clock(clock));
    }
}
