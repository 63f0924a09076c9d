package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.localqueue.WorkerTest.Finished;
import io.localqueue.WorkerTest.Recorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker built for batches hands its handler lists of jobs and settles each job by its share of the result. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchWorkerTest extends QueueTestBase {

    private final List<Worker<?>> workers = new ArrayList<>();
    private final Recorder observer = new Recorder();

    @AfterEach
    void stopWorkers() {
        workers.forEach(worker -> worker.stop(Duration.ofSeconds(5)));
    }

    @Test
    void aReturningBatchHandlerAcknowledgesTheWholeBatchInClaimOrder() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        List<Long> ids = putNumbers(queue, 7);
        List<List<Object>> batches = new CopyOnWriteArrayList<>();
        Worker<Object> worker = track(Worker.batchBuilder(queue,
                (List<Job<Object>> jobs) -> batches.add(jobs.stream().map(Job::data).toList()))
                .batchSize(3).observer(observer).build());

        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isFalse();

        assertThat(batches).containsExactly(List.of(0, 1, 2), List.of(3, 4, 5), List.of(6));
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 7, 0));
        assertThat(observer.finished).extracting(Finished::jobId).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(observer.outcomes()).containsOnly(JobOutcome.ACKED);
    }

    @Test
    void aBatchFailedExceptionRetriesOnlyTheJobAtItsIndexWithItsCause() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        List<Long> ids = putNumbers(queue, 4);
        Worker<Object> worker = track(Worker.batchBuilder(queue, (List<Job<Object>> jobs) -> {
            throw new BatchFailedException(2, new IllegalStateException("bad item"));
        }).batchSize(10).observer(observer).build());

        worker.runOnce();

        assertThat(observer.finished).extracting(Finished::jobId, Finished::outcome).containsExactlyInAnyOrder(
                tuple(ids.get(0), JobOutcome.ACKED), tuple(ids.get(1), JobOutcome.ACKED),
                tuple(ids.get(2), JobOutcome.RETRIED), tuple(ids.get(3), JobOutcome.ACKED));
        assertThat(observer.finished).filteredOn(finished -> finished.jobId() == ids.get(2)).singleElement()
                .satisfies(finished -> assertThat(finished.error()).isInstanceOf(IllegalStateException.class)
                        .hasMessage("bad item"));
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 3, 0));
        assertThat(queue.getNowait().data()).isEqualTo(2);
    }

    @Test
    void aPermanentCauseDeadLettersTheFailedJobOfTheBatch() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        List<Long> ids = putNumbers(queue, 2);
        Worker<Object> worker = track(Worker.batchBuilder(queue, (List<Job<Object>> jobs) -> {
            throw new BatchFailedException(0, new WorkerTest.InvalidInput("never valid"));
        }).permanentErrors(IllegalArgumentException.class).observer(observer).build());

        worker.runOnce();

        assertThat(observer.dead).extracting(WorkerTest.Dead::jobId, WorkerTest.Dead::reason)
                .containsExactly(tuple(ids.get(0), FailureReason.PERMANENT_HANDLER_ERROR));
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 1));
    }

    @Test
    void anyOtherExceptionOrAnIndexOutsideTheBatchFailsEveryJob() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        putNumbers(queue, 3);
        List<RuntimeException> failures = List.of(new IllegalStateException("all bad"),
                new BatchFailedException(3, new IllegalStateException("no such item")));
        List<RuntimeException> left = new ArrayList<>(failures);
        Worker<Object> worker = track(Worker.batchBuilder(queue, (List<Job<Object>> jobs) -> {
            throw left.remove(0);
        }).observer(observer).build());

        worker.runOnce();
        worker.runOnce();

        assertThat(observer.outcomes()).hasSize(6).containsOnly(JobOutcome.RETRIED);
        assertThat(observer.finished.subList(3, 6)).extracting(Finished::error)
                .allSatisfy(error -> assertThat(error).isSameAs(failures.get(1)));
        assertThat(queue.stats()).isEqualTo(new QueueStats(3, 0, 0, 0));
    }

    @Test
    void jobsTheBatchHandlerSettledItselfKeepTheirSettlement() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        putNumbers(queue, 3);
        Worker<Object> worker = track(Worker.batchBuilder(queue, (List<Job<Object>> jobs) -> {
            Acknowledgement.of(queue, jobs.get(1)).reject("not for us");
            throw new IllegalStateException("the others fail");
        }).observer(observer).build());

        worker.runOnce();

        // the handler's own settlement is reported at once, the worker's when their grouped commit ends
        assertThat(observer.outcomes()).containsExactlyInAnyOrder(JobOutcome.RETRIED, JobOutcome.DEAD_LETTERED,
                JobOutcome.RETRIED);
        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 0, 1));
    }

    @Test
    void aBatchWaitFillsABatchFromJobsThatArriveWhileItWaits() throws Exception {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        Worker<Object> worker = track(Worker.batchBuilder(queue, (List<Job<Object>> jobs) -> sizes.add(jobs.size()))
                .batchSize(5).batchWait(Duration.ofSeconds(10)).observer(observer).build());
        worker.start();
        for (int i = 0; i < 5; i++) {
            queue.put(i);
        }

        await().atMost(Threads.BOUND).until(() -> observer.finished.size() == 5);
        assertThat(sizes).containsExactly(5);
    }

    @Test
    void aRunningBatchWorkerHandlesManyJobsEachOnce() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        List<Long> ids = putNumbers(queue, 250);
        List<Long> seen = new CopyOnWriteArrayList<>();
        Worker<Object> worker = track(Worker.batchBuilder(queue,
                        (List<Job<Object>> jobs) -> jobs.forEach(job -> seen.add(job.id())))
                .batchSize(40).concurrency(2).observer(observer).build());
        worker.start();

        await().atMost(Threads.BOUND).until(() -> queue.stats().equals(new QueueStats(0, 0, 250, 0)));
        assertThat(worker.stop()).isTrue();
        assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void batchSettingsAreCheckedAndOnlyForBatchWorkers() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(10), 3));
        Worker.Builder<Object> batches = Worker.batchBuilder(queue, (List<Job<Object>> jobs) -> { });

        assertThatThrownBy(() -> batches.batchSize(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batchSize").hasMessageContaining("1000");
        assertThatThrownBy(() -> batches.batchSize(1_001)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> batches.batchWait(Duration.ofSeconds(5))).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("half the queue lease");
        assertThatThrownBy(() -> batches.batchWait(Duration.ofMillis(-1))).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("batchWait");
        assertThatThrownBy(() -> Worker.batchBuilder(queue, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("handler");
        assertThatThrownBy(() -> Worker.builder(queue, job -> { }).batchSize(5))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("batchBuilder");
    }

    private SimpleQueue<Object> queue(DeliveryPolicy policy) {
        return open(SimpleQueue.builder(database()).name("batches").delivery(policy));
    }

    private static List<Long> putNumbers(SimpleQueue<Object> queue, int count) {
        return queue.putMany(IntStream.range(0, count).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
    }

    private <T> Worker<T> track(Worker<T> worker) {
        workers.add(worker);
        return worker;
    }
}
