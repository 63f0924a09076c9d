package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.WorkerTest.Recorder;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pausing stops claims without waiting for the job in hand, which finishes and settles as usual. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerPauseTest extends QueueTestBase {

    private final Recorder observer = new Recorder();

    @Test
    void pauseReturnsAtOnceLetsTheRunningJobFinishAndClaimsNothingUntilResumed() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("paused"));
        queue.putMany(IntStream.range(0, 3).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Worker<Object> worker = Worker.builder(queue, job -> {
            if (job.data().equals(0)) {
                running.countDown();
                release.await();
            }
        }).pollInterval(Duration.ofMillis(50)).observer(observer).build()) {
            worker.start();
            assertThat(running.await(Threads.BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

            worker.pause();
            assertThat(worker.isPaused()).isTrue();
            assertThat(worker.isRunning()).isTrue();
            release.countDown();

            await().atMost(Threads.BOUND).until(() -> observer.finished.size() == 1);
            await().atMost(Threads.BOUND).until(() -> queue.stats().equals(new QueueStats(2, 0, 1, 0)));
            assertThat(queue.listFailed()).isEmpty();
            assertThat(observer.outcomes()).containsExactly(JobOutcome.ACKED);

            worker.resume();
            await().atMost(Threads.BOUND).until(() -> queue.stats().equals(new QueueStats(0, 0, 3, 0)));
        }
    }

    @Test
    void jobsClaimedAheadAreHandedBackUncountedWhenPaused() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("ahead"));
        queue.putMany(IntStream.range(0, 20).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Worker<Object> worker = Worker.builder(queue, job -> {
            first.countDown();
            release.await();
        }).concurrency(4).pollInterval(Duration.ofMillis(50)).observer(observer).build()) {
            worker.start();
            assertThat(first.await(Threads.BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            worker.pause();
            release.countDown();

            await().atMost(Threads.BOUND).until(() -> queue.stats().processing() == 0);
            int handled = observer.finished.size();
            assertThat(queue.stats().ready()).isEqualTo(20 - handled);
            worker.resume();
            await().atMost(Threads.BOUND).until(() -> queue.stats().equals(new QueueStats(0, 0, 20, 0)));
        }
        try (Worker<Object> counter = Worker.builder(queue, job -> { }).build()) {
            assertThat(counter.runOnce()).isFalse();
        }
        assertThat(observer.outcomes()).hasSize(20).containsOnly(JobOutcome.ACKED);
    }

    @Test
    void aWorkerPausedBeforeItStartsClaimsNothingAndStopsCleanly() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("never"));
        queue.put("x");
        Worker<Object> worker = Worker.builder(queue, job -> { }).pollInterval(Duration.ofMillis(20)).build();
        worker.pause();
        worker.start();

        assertThat(worker.isPaused()).isTrue();
        assertThat(worker.stop(Duration.ofSeconds(5))).isTrue();
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }
}
