package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.RejectException;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerTest extends QueueTestBase {

    private static final Duration BOUND = Threads.BOUND;

    private final List<Worker<?>> workers = new ArrayList<>();
    private final List<CountDownLatch> latches = new ArrayList<>();
    private final Recorder observer = new Recorder();

    @AfterEach
    void tearDown() {
        latches.forEach(latch -> {
            while (latch.getCount() > 0) {
                latch.countDown();
            }
        });
        workers.forEach(worker -> worker.stop(Duration.ofSeconds(5)));
    }

    // ---------------------------------------------------------------- outcomes

    @Test
    void handlerThatReturnsAcksTheJob() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        long id = queue.put("hello");
        List<Object> seen = new CopyOnWriteArrayList<>();
        Worker<Object> worker = track(Worker.builder(queue, job -> seen.add(job.data())).observer(observer).build());

        assertThat(worker.runOnce()).isTrue();

        assertThat(seen).containsExactly("hello");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThat(observer.outcomes()).containsExactly(JobOutcome.ACKED);
        assertThat(observer.finished.get(0).jobId()).isEqualTo(id);
        assertThat(observer.finished.get(0).error()).isNull();
    }

    @Test
    void transientErrorReturnsTheJobWithLastErrorAndItIsDeliveredAgain() throws SQLException {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        long id = queue.put("flaky");
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            attempts.add(job.attempts());
            if (job.attempts() == 0) {
                throw new IllegalStateException("boom on first try");
            }
        }).observer(observer).build());

        assertThat(worker.runOnce()).isTrue();
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(lastError(id)).isEqualTo("java.lang.IllegalStateException: boom on first try");
        assertThat(observer.outcomes()).containsExactly(JobOutcome.RETRIED);
        assertThat(observer.finished.get(0).error()).isInstanceOf(IllegalStateException.class);

        assertThat(worker.runOnce()).isTrue();
        assertThat(attempts).containsExactly(0, 1);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThat(observer.outcomes()).containsExactly(JobOutcome.RETRIED, JobOutcome.ACKED);
    }

    @Test
    void exceptionWithoutMessageIsRecordedAsClassNameAndColon() throws SQLException {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        long id = queue.put("x");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            throw new UnsupportedOperationException();
        }).build());

        worker.runOnce();

        assertThat(lastError(id)).isEqualTo("java.lang.UnsupportedOperationException: ");
    }

    @Test
    void failingJobIsRetriedUpToItsBudgetThenDeadLetteredAsRetriesExhausted() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 2));
        long id = queue.put("doomed");
        AtomicInteger calls = new AtomicInteger();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            calls.incrementAndGet();
            throw new IOException("disk says no");
        }).observer(observer).build());

        while (worker.runOnce()) {
            assertThat(calls.get()).isLessThanOrEqualTo(3);
        }

        assertThat(calls).hasValue(3);
        assertThat(observer.outcomes())
                .containsExactly(JobOutcome.RETRIED, JobOutcome.RETRIED, JobOutcome.DEAD_LETTERED);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        FailedMessage<Object> dead = queue.listFailed().get(0);
        assertThat(dead.id()).isEqualTo(id);
        assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.lastError()).isEqualTo("java.io.IOException: disk says no");
        assertThat(dead.data()).isEqualTo("doomed");
    }

    @Test
    void zeroRetriesDeadLettersOnTheFirstFailure() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 0));
        queue.put("once");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            throw new IllegalStateException("nope");
        }).observer(observer).build());

        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isFalse();

        assertThat(observer.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED);
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
            assertThat(dead.lastError()).isEqualTo("java.lang.IllegalStateException: nope");
        });
    }

    @Test
    void permanentErrorDeadLettersAtOnce() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 5));
        long id = queue.put("bad input");
        AtomicInteger calls = new AtomicInteger();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            calls.incrementAndGet();
            throw new InvalidInput("field 'x' is missing");
        }).permanentErrors(InvalidInput.class).observer(observer).build());

        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isFalse();

        assertThat(calls).hasValue(1);
        assertThat(observer.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED);
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.id()).isEqualTo(id);
            assertThat(dead.reason()).isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.lastError()).isEqualTo(InvalidInput.class.getName() + ": field 'x' is missing");
        });
    }

    @Test
    void subclassOfAPermanentErrorIsPermanentToo() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 5));
        queue.put("NaN");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            Integer.parseInt("not a number");
        }).permanentErrors(IOException.class, IllegalArgumentException.class).observer(observer).build());

        worker.runOnce();

        assertThat(observer.outcomes()).containsExactly(JobOutcome.DEAD_LETTERED);
        FailedMessage<Object> dead = queue.listFailed().get(0);
        assertThat(dead.reason()).isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
        assertThat(dead.lastError()).startsWith("java.lang.NumberFormatException: ");
    }

    @Test
    void exceptionOutsideThePermanentListIsRetried() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 5));
        queue.put("x");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            throw new IllegalStateException("temporary");
        }).permanentErrors(InvalidInput.class).observer(observer).build());

        worker.runOnce();

        assertThat(observer.outcomes()).containsExactly(JobOutcome.RETRIED);
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void runOnceReturnsFalseOnAnEmptyQueueWithoutCallingTheHandler() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        AtomicInteger calls = new AtomicInteger();
        Worker<Object> worker = track(Worker.builder(queue, job -> calls.incrementAndGet()).build());

        assertThat(worker.runOnce()).isFalse();
        queue.put("one");
        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isFalse();

        assertThat(calls).hasValue(1);
    }

    // ---------------------------------------------------------------- validation

    @Test
    void builderRefusesNullQueueAndNullHandler() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());

        assertThatThrownBy(() -> Worker.builder(null, job -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("queue");
        assertThatThrownBy(() -> Worker.builder(queue, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("handler");
    }

    @Test
    void builderRefusesConcurrencyBelowOne() {
        Worker.Builder<Object> builder = Worker.builder(queue(DeliveryPolicy.defaults()), job -> { });

        assertThatThrownBy(() -> builder.concurrency(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency");
        assertThatThrownBy(() -> builder.concurrency(-3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency");
    }

    @Test
    void builderRefusesAPrefetchOutOfRange() {
        Worker.Builder<Object> builder = Worker.builder(queue(DeliveryPolicy.defaults()), job -> { });

        assertThatThrownBy(() -> builder.prefetch(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefetch");
        assertThatThrownBy(() -> builder.prefetch(Worker.MAX_PREFETCH + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefetch");
    }

    @Test
    void builderRefusesHeartbeatNotShorterThanTheLease() {
        Worker.Builder<Object> builder = Worker.builder(
                queue(new DeliveryPolicy(Duration.ofSeconds(2), 3)), job -> { });

        assertThatThrownBy(() -> builder.heartbeatInterval(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeatInterval");
        assertThatThrownBy(() -> builder.heartbeatInterval(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeatInterval");
        builder.heartbeatInterval(Duration.ofMillis(1999));
    }

    @Test
    void builderRefusesNonPositiveIntervalsNamingThem() {
        Worker.Builder<Object> builder = Worker.builder(queue(DeliveryPolicy.defaults()), job -> { });

        assertThatThrownBy(() -> builder.heartbeatInterval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeatInterval");
        assertThatThrownBy(() -> builder.heartbeatInterval(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeatInterval");
        assertThatThrownBy(() -> builder.heartbeatInterval(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeatInterval");
        assertThatThrownBy(() -> builder.pollInterval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pollInterval");
        assertThatThrownBy(() -> builder.pollInterval(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pollInterval");
        assertThatThrownBy(() -> builder.shutdownTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shutdownTimeout");
        assertThatThrownBy(() -> builder.permanentErrors((Class<? extends Throwable>) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("permanentErrors");
        assertThatThrownBy(() -> builder.observer(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("observer");
    }

    @Test
    void startingTwiceIsRefused() {
        Worker<Object> worker = track(Worker.builder(queue(DeliveryPolicy.defaults()), job -> { }).build());
        worker.start();

        assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(worker::run).isInstanceOf(IllegalStateException.class);
        assertThat(worker.isRunning()).isTrue();
    }

    @Test
    void aStoppedWorkerCannotBeStartedAgain() {
        Worker<Object> worker = track(Worker.builder(queue(DeliveryPolicy.defaults()), job -> { }).build());
        worker.start();
        assertThat(worker.stop()).isTrue();

        assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class);
        assertThat(worker.isRunning()).isFalse();
    }

    // ---------------------------------------------------------------- leases

    @Test
    void heartbeatKeepsALongHandlerLeasedAndTheJobIsAckedOnce() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofMillis(400), 3);
        SimpleQueue<Object> queue = queue(policy);
        SimpleQueue<Object> rival = queue(policy);
        long id = queue.put("long job");
        Gate gate = new Gate(1);
        AtomicInteger calls = new AtomicInteger();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            calls.incrementAndGet();
            gate.enter();
        }).heartbeatInterval(Duration.ofMillis(100)).observer(observer).build());
        gate.start(worker);

        // Three leases' worth of time: without renewal the rival would claim the job.
        assertThatThrownBy(() -> rival.get(Duration.ofMillis(1200))).isInstanceOf(QueueEmptyException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        gate.release();

        await().atMost(BOUND).until(() -> queue.stats().equals(new QueueStats(0, 0, 1, 0)));
        awaitSingleOutcome(JobOutcome.ACKED);
        assertThat(observer.finished.get(0).jobId()).isEqualTo(id);
        assertThat(observer.finished.get(0).handlerTime()).isGreaterThanOrEqualTo(Duration.ofMillis(1200));
        assertThat(calls).hasValue(1);
    }

    @Test
    void withoutHeartbeatALostLeaseDiscardsTheLateResult() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofSeconds(30), 3);
        SimpleQueue<Object> queue = clockedQueue(policy);
        SimpleQueue<Object> rival = clockedQueue(policy);
        long id = queue.put("slow");
        Gate gate = new Gate(1);
        Worker<Object> worker = track(Worker.builder(queue, job -> gate.enter()).observer(observer).build());
        gate.start(worker);

        clock.advance(Duration.ofSeconds(31));
        Job<Object> second = rival.getNowait();
        assertThat(second.id()).isEqualTo(id);
        assertThat(second.attempts()).isEqualTo(1);
        gate.release();

        awaitSingleOutcome(JobOutcome.DISCARDED);
        assertLeasedUntilTheRivalAcks(queue, rival, second);
    }

    @Test
    void withoutHeartbeatALostLeaseDiscardsALateFailureToo() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofSeconds(30), 3);
        SimpleQueue<Object> queue = clockedQueue(policy);
        SimpleQueue<Object> rival = clockedQueue(policy);
        queue.put("slow and failing");
        Gate gate = new Gate(1);
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            gate.enter();
            throw new InvalidInput("too late to matter");
        }).permanentErrors(InvalidInput.class).observer(observer).build());
        gate.start(worker);

        clock.advance(Duration.ofSeconds(31));
        Job<Object> second = rival.getNowait();
        gate.release();

        awaitSingleOutcome(JobOutcome.DISCARDED);
        assertThat(queue.listFailed()).isEmpty();
        assertLeasedUntilTheRivalAcks(queue, rival, second);
    }

    @Test
    void heartbeatThatFindsTheJobSettledElsewhereDiscardsTheResult() throws Exception {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(5), 3));
        SimpleQueue<Object> other = queue(new DeliveryPolicy(Duration.ofSeconds(5), 3));
        long id = queue.put("contested");
        Gate gate = new Gate(1);
        AtomicReference<String> receipt = new AtomicReference<>();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            receipt.set(job.receipt());
            gate.enter();
            throw new IllegalStateException("fails after losing its job");
        }).heartbeatInterval(Duration.ofMillis(50)).observer(observer).build());
        gate.start(worker);

        try (WorkerLog log = new WorkerLog()) {
            other.ack(ForeignJobs.of(other, id, receipt.get()));
            await().atMost(BOUND).until(() -> log.contains("Lease of job " + id + " in queue 'work' could not be renewed"));
        }
        gate.release();

        awaitSingleOutcome(JobOutcome.DISCARDED);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThat(queue.listFailed()).isEmpty();
    }

    @Test
    void heartbeatThatFindsTheLeaseReclaimedDiscardsTheResultAndLeavesTheNewHolderAlone() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofSeconds(30), 3);
        SimpleQueue<Object> queue = clockedQueue(policy);
        SimpleQueue<Object> rival = clockedQueue(policy);
        long id = queue.put("reclaimed");
        Gate gate = new Gate(1);
        Worker<Object> worker = track(Worker.builder(queue, job -> gate.enter())
                .heartbeatInterval(Duration.ofMillis(50)).observer(observer).build());
        gate.start(worker);

        Job<Object> second;
        try (WorkerLog log = new WorkerLog()) {
            clock.advance(Duration.ofSeconds(31));
            second = rival.getNowait();
            assertThat(second.id()).isEqualTo(id);
            await().atMost(BOUND).until(() -> log.contains("Lease of job " + id + " in queue 'work' could not be renewed"));
        }
        gate.release();

        awaitSingleOutcome(JobOutcome.DISCARDED);
        assertLeasedUntilTheRivalAcks(queue, rival, second);
    }

    // ---------------------------------------------------------------- concurrency

    @Test
    void jobsClaimedAheadOfABusyHandlerNeverOutnumberThePrefetch() throws InterruptedException {
        assertThat(leasedWhileTheHandlerIsStuck(5)).isBetween(1, 1 + 5);
        assertThat(leasedWhileTheHandlerIsStuck(0)).isEqualTo(1);
    }

    @Test
    void theDefaultPrefetchIsSmall() throws InterruptedException {
        assertThat(leasedWhileTheHandlerIsStuck(-1)).isBetween(1, 1 + Worker.DEFAULT_PREFETCH);
    }

    /**
     * Runs a worker of one thread (with the given prefetch, or the default for -1) whose handler is quick for fifty
     * jobs, so that its claims take as many ahead as the prefetch allows, then stuck on the next; returns how many of
     * the queue's jobs are leased while it is stuck: the stuck one and those claimed ahead of it.
     */
    private int leasedWhileTheHandlerIsStuck(int prefetch) throws InterruptedException {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("prefetch" + prefetch));
        queue.putMany(IntStream.range(0, 400).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        AtomicInteger handled = new AtomicInteger();
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = latch(1);
        Worker.Builder<Object> builder = Worker.builder(queue, job -> {
            if (handled.incrementAndGet() > 50) {
                stuck.countDown();
                release.await();
            }
        });
        Worker<Object> worker = track((prefetch < 0 ? builder : builder.prefetch(prefetch)).build());
        worker.start();
        assertThat(stuck.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).as("the handler got stuck").isTrue();
        // the quick jobs' acknowledgements commit after their handlers returned
        await().atMost(BOUND).until(() -> queue.stats().acked() == 50);
        QueueStats stuckAt = queue.stats();
        release.countDown();
        worker.stop(Duration.ofSeconds(5));
        queue.close();
        return (int) stuckAt.processing();
    }

    @Test
    void concurrencyRunsThatManyHandlersAtOnceAndNeverMore() throws Exception {
        int concurrency = 3;
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        queue.putMany(IntStream.range(0, 7).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        Gate gate = new Gate(concurrency);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                gate.enter();
            } finally {
                running.decrementAndGet();
            }
        }).concurrency(concurrency).pollInterval(Duration.ofMillis(50)).observer(observer).build());
        worker.start();

        gate.awaitStarted();
        assertThat(worker.activeJobs()).isEqualTo(concurrency);
        assertThat(queue.stats()).isEqualTo(new QueueStats(4, 3, 0, 0));
        gate.release();

        await().atMost(BOUND).until(() -> queue.stats().equals(new QueueStats(0, 0, 7, 0)));
        assertThat(maxRunning).hasValue(concurrency);
        await().atMost(BOUND).until(() -> observer.finished.size() == 7);
        assertThat(observer.outcomes()).containsOnly(JobOutcome.ACKED);
    }

    @Test
    void idleWorkerWakesForAJobPutLater() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        SimpleQueue<Object> producer = queue(DeliveryPolicy.defaults());
        List<Object> seen = new CopyOnWriteArrayList<>();
        // A poll interval far beyond the bound: only a wake-up can deliver the job in time.
        Worker<Object> worker = track(Worker.builder(queue, job -> seen.add(job.data()))
                .pollInterval(Duration.ofSeconds(30)).name("sleepy").build());
        worker.start();
        await().atMost(BOUND).until(() -> workerThreadsWaiting("localqueue-worker-sleepy-"));

        producer.put("wake up");

        await().atMost(BOUND).until(() -> seen.size() == 1);
        assertThat(seen).containsExactly("wake up");
    }

    @Test
    void observerSeesEachOutcomeWithHandlerTime() throws Exception {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 0));
        long ok = queue.put("ok");
        long transientFailure = queue.put("retry");
        long permanent = queue.put("permanent");
        CountDownLatch slow = new CountDownLatch(1);
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            switch ((String) job.data()) {
                case "ok" -> slow.await(30, TimeUnit.MILLISECONDS);
                case "retry" -> throw new IllegalStateException("again");
                default -> throw new InvalidInput("never");
            }
        }).permanentErrors(InvalidInput.class).observer(observer).build());

        while (worker.runOnce()) {
            // drain
        }

        assertThat(observer.finished).extracting(Finished::jobId).containsExactly(ok, transientFailure, permanent);
        assertThat(observer.outcomes())
                .containsExactly(JobOutcome.ACKED, JobOutcome.DEAD_LETTERED, JobOutcome.DEAD_LETTERED);
        assertThat(observer.finished.get(0).handlerTime()).isGreaterThanOrEqualTo(Duration.ofMillis(30));
        assertThat(observer.finished).allSatisfy(finished ->
                assertThat(finished.handlerTime()).isGreaterThanOrEqualTo(Duration.ZERO));
        assertThat(observer.finished.get(1).error()).isInstanceOf(IllegalStateException.class);
        assertThat(observer.finished.get(2).error()).isInstanceOf(InvalidInput.class);
        assertThat(queue.listFailed()).extracting(FailedMessage::reason)
                .containsExactlyInAnyOrder(FailureReason.RETRIES_EXHAUSTED, FailureReason.PERMANENT_HANDLER_ERROR);
    }

    @Test
    void observerThatThrowsDoesNotBreakTheWorker() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        queue.put("a");
        queue.put("b");
        Worker<Object> worker = track(Worker.builder(queue, job -> { })
                .observer(new WorkerObserver() {
                    @Override
                    public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime,
                                            @Nullable Throwable error) {
                        throw new IllegalStateException("observer bug");
                    }
                }).build());

        assertThat(worker.runOnce()).isTrue();
        assertThat(worker.runOnce()).isTrue();

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 2, 0));
    }

    @Test
    void aSlowDeadLetterAlertHoldsNoAcknowledgementsOfAnotherQueueAndRunsOffTheCommitThread() throws Exception {
        SimpleQueue<Object> alerted = open(SimpleQueue.builder(database()).name("alerted")
                .delivery(new DeliveryPolicy(Duration.ofSeconds(30), 0)).clock(clock));
        SimpleQueue<Object> busy = open(SimpleQueue.builder(database()).name("busy")
                .delivery(new DeliveryPolicy(Duration.ofSeconds(5), 3)).clock(clock));
        alerted.put("poison");
        CountDownLatch alerting = new CountDownLatch(1);
        CountDownLatch pagerAnswers = new CountDownLatch(1);
        latches.add(pagerAnswers);
        AtomicReference<String> alertThread = new AtomicReference<>();
        track(Worker.builder(alerted, job -> {
            throw new IllegalStateException("always");
        }).name("alerted").observer(new WorkerObserver() {
            @Override
            public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                        int attempts) {
                alertThread.set(Thread.currentThread().getName());
                alerting.countDown();
                try {
                    pagerAnswers.await(); // a pager call that hangs
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }).build()).start();
        assertThat(alerting.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        Map<Object, AtomicInteger> runs = new ConcurrentHashMap<>();
        IntStream.range(0, 4).forEach(i -> busy.put("job-" + i));
        track(Worker.builder(busy, job -> runs.computeIfAbsent(job.data(), data -> new AtomicInteger())
                .incrementAndGet()).pollInterval(Duration.ofMillis(20)).build()).start();
        await().atMost(BOUND).until(() -> busy.stats().acked() == 4);
        clock.advance(Duration.ofSeconds(12)); // the alert outlives the busy queue's lease

        assertThat(pagerAnswers.getCount()).as("the alert still hangs").isEqualTo(1);
        assertThat(busy.stats()).isEqualTo(new QueueStats(0, 0, 4, 0));
        assertThat(runs.values()).hasSize(4).allMatch(count -> count.get() == 1);
        assertThat(alertThread.get()).isEqualTo("localqueue-report-alerted");
        pagerAnswers.countDown();
    }

    @Test
    void aPayloadTheQueueCannotDecodeIsReportedAsADeadLetterAndTheWorkerGoesOn() {
        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(database(), new RawBytesSerializer()).name("work"));
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        long poison = raw.put("not json at all".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        long fine = queue.put("fine");
        List<String> undecodable = new CopyOnWriteArrayList<>();
        Recorder recorder = new Recorder() {
            @Override
            public void jobUndecodable(String queueName, long jobId, int attempts, String decodeError) {
                undecodable.add(queueName + " " + jobId + " " + attempts + " " + decodeError);
            }
        };
        Worker<Object> worker = track(Worker.builder(queue, job -> { }).observer(recorder).build());

        try (WorkerLog log = new WorkerLog()) {
            assertThat(worker.runOnce()).isTrue();
            assertThat(log.contains("Job " + poison + " of queue 'work' cannot be decoded and is now a dead letter "
                    + "(invalid_payload)")).isTrue();
        }
        assertThat(worker.runOnce()).isTrue();

        assertThat(undecodable).singleElement().asString().startsWith("work " + poison + " 1 ");
        assertThat(recorder.dead).singleElement().satisfies(dead -> {
            assertThat(dead.jobId()).isEqualTo(poison);
            assertThat(dead.reason()).isEqualTo(FailureReason.INVALID_PAYLOAD);
            assertThat(dead.attempts()).isEqualTo(1);
        });
        assertThat(recorder.finished).extracting(Finished::jobId).containsExactly(fine);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 1));
    }

    // ---------------------------------------------------------------- stopping

    @Test
    void gracefulStopWaitsForRunningHandlersWhichAreAckedOnce() throws Exception {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        queue.putMany(IntStream.range(0, 5).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        Gate gate = new Gate(2);
        Map<Long, AtomicInteger> calls = new ConcurrentHashMap<>();
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            calls.computeIfAbsent(job.id(), key -> new AtomicInteger()).incrementAndGet();
            gate.enter();
        }).concurrency(2).observer(observer).build());
        gate.start(worker);

        Threads.Call<Boolean> stop = Threads.start("stopper", worker::stop).awaitParked();
        assertThat(stop.result()).isNotDone();
        assertThat(worker.isRunning()).isFalse();
        gate.release();

        assertThat(stop.result().get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(queue.stats()).isEqualTo(new QueueStats(3, 0, 2, 0));
        assertThat(observer.outcomes()).containsExactly(JobOutcome.ACKED, JobOutcome.ACKED);
        assertThat(calls).hasSize(2);
        assertThat(calls.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(worker.activeJobs()).isZero();
    }

    @Test
    void stopThatTimesOutHandsAnInterruptedJobBackAtOnceWithoutSpendingADelivery() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofMinutes(10), 3);
        SimpleQueue<Object> queue = queue(policy);
        long id = queue.put("stuck");
        Gate gate = new Gate(1);
        Worker<Object> stuck = track(Worker.builder(queue, job -> gate.enter()).observer(observer).build());
        gate.start(stuck);

        assertThat(stuck.stop(Duration.ofMillis(100))).isFalse();

        // Ready again at once, long before its ten-minute lease would have run out.
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(observer.finished).extracting(Finished::jobId).containsExactly(id);
        assertThat(observer.outcomes()).containsExactly(JobOutcome.RELEASED);
        Job<Object> again = queue.getNowait();
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.attempts()).as("the interrupted delivery is not counted").isZero();
    }

    @Test
    void aFailedJobWaitsTheRetryPolicysDelayBeforeItsNextDelivery() {
        SimpleQueue<Object> queue = clockedQueue(new DeliveryPolicy(Duration.ofSeconds(30), 2));
        long id = queue.put("fails once");
        try (WorkerLog log = new WorkerLog()) {
            Worker<Object> worker = track(Worker.builder(queue, job -> {
                throw new IllegalStateException("not now");
            }).retry(RetryPolicy.fixed(3, Duration.ofSeconds(10))).observer(observer).build());
            worker.start();
            await().atMost(BOUND).until(() -> observer.finished.size() == 1);
            worker.stop();

            assertThat(log.contains("failed on delivery 1; it will be retried in 10000 ms")).isTrue();
        }
        assertThat(observer.outcomes()).containsExactly(JobOutcome.RETRIED);
        assertThatThrownBy(queue::getNowait).as("not due before the delay").isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofSeconds(10));
        Job<Object> again = queue.getNowait();
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.attempts()).isEqualTo(1);
    }

    @Test
    void aHandlersRetryLaterExceptionPicksItsOwnDelay() {
        SimpleQueue<Object> queue = clockedQueue(new DeliveryPolicy(Duration.ofSeconds(30), 2));
        queue.put("later");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            throw new RetryLaterException(Duration.ofMinutes(5), "the mail server asked for 5 minutes");
        }).retry(RetryPolicy.fixed(3, Duration.ofSeconds(1))).observer(observer).build());
        worker.start();
        await().atMost(BOUND).until(() -> observer.finished.size() == 1);
        worker.stop();

        clock.advance(Duration.ofMinutes(4));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.getNowait().attempts()).isEqualTo(1);
    }

    @Test
    void aHandlersRejectionDeadLettersTheJobAtOnceWithItsCategoryAsOnTheBus() {
        SimpleQueue<Object> queue = clockedQueue(new DeliveryPolicy(Duration.ofSeconds(30), 2));
        long id = queue.put("refused");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            throw new RejectException("the address is on the suppression list", "suppressed");
        }).retry(RetryPolicy.fixed(3, Duration.ofSeconds(1))).observer(observer).build());
        worker.start();
        await().atMost(BOUND).until(() -> observer.dead.size() == 1);
        worker.stop();

        assertThat(observer.dead).containsExactly(new Dead(id, FailureReason.REJECTED,
                "the address is on the suppression list", 1));
        FailedMessage<Object> failed = queue.listFailed().get(0);
        assertThat(failed.reason()).isEqualTo(FailureReason.REJECTED);
        assertThat(failed.failureCategory()).isEqualTo("suppressed");
        assertThat(failed.attempts()).as("no retry was spent on it").isEqualTo(1);
    }

    @Test
    void aRetryPolicyWhoseBudgetDiffersFromTheQueuesIsRefused() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));

        assertThatThrownBy(() -> Worker.builder(queue, job -> { }).retry(RetryPolicy.exponential(8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retry allows 8 deliveries but queue 'work' stores a budget of 4");
        assertThatThrownBy(() -> Worker.builder(queue, job -> { }).retry(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry");
    }

    @Test
    void everyWayAJobBecomesADeadLetterIsReportedWithItsReason() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 0));
        long permanent = queue.put("permanent");
        long exhausted = queue.put("exhausted");
        long failedByHandler = queue.put("failed by the handler");
        Worker<Object> worker = track(Worker.builder(queue, job -> {
            switch ((String) job.data()) {
                case "permanent" -> throw new IllegalArgumentException("bad address");
                case "exhausted" -> throw new IllegalStateException("server down");
                default -> queue.fail(job, "refused by hand");
            }
        }).permanentErrors(IllegalArgumentException.class).observer(observer).build());
        worker.start();
        await().atMost(BOUND).until(() -> observer.dead.size() == 3);
        worker.stop();

        assertThat(observer.dead).containsExactlyInAnyOrder(
                new Dead(permanent, FailureReason.PERMANENT_HANDLER_ERROR,
                        "java.lang.IllegalArgumentException: bad address", 1),
                new Dead(exhausted, FailureReason.RETRIES_EXHAUSTED, "java.lang.IllegalStateException: server down", 1),
                new Dead(failedByHandler, FailureReason.EXPLICIT_PERMANENT_FAILURE, "refused by hand", 1));
    }

    @Test
    void aHandlerThatSettlesItsJobItselfIsReportedAsItSettledWithoutALeaseWarning() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(Duration.ofSeconds(30), 3));
        long later = queue.put("later");
        long done = queue.put("done");
        long dead = queue.put("dead");
        try (WorkerLog log = new WorkerLog()) {
            Worker<Object> worker = track(Worker.builder(queue, job -> {
                switch ((String) job.data()) {
                    case "later" -> queue.nack(job, Duration.ofMinutes(5), "not yet");
                    case "done" -> queue.ack(job);
                    default -> queue.fail(job, "no");
                }
            }).observer(observer).heartbeatInterval(Duration.ofMillis(50)).pollInterval(Duration.ofMillis(20)).build());
            worker.start();
            await().atMost(BOUND).until(() -> observer.finished.size() == 3);
            worker.stop();

            assertThat(log.contains("Lease of job")).as("no lease warning").isFalse();
        }
        assertThat(observer.finished).extracting(Finished::jobId, Finished::outcome).containsExactlyInAnyOrder(
                tuple(later, JobOutcome.RETRIED), tuple(done, JobOutcome.ACKED),
                tuple(dead, JobOutcome.DEAD_LETTERED));
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 1, 1));
    }

    @Test
    void aJobWhoseLastLeaseExpiredBecomesADeadLetterThatSaysSoAndIsReported() {
        SimpleQueue<Object> queue = clockedQueue(new DeliveryPolicy(Duration.ofSeconds(30), 0));
        long id = queue.put("abandoned");
        queue.getNowait(); // its only delivery, whose process then died
        clock.advance(Duration.ofSeconds(31));

        try (WorkerLog log = new WorkerLog(io.localqueue.internal.engine.LeaseExpiries.class)) {
            Worker<Object> worker = track(Worker.builder(queue, job -> { }).observer(observer)
                    .pollInterval(Duration.ofMillis(20)).build());
            worker.start();
            await().atMost(BOUND).until(() -> !observer.expired.isEmpty());

            assertThat(observer.expired).containsExactly(new Expired("work", id, 1, true));
            assertThat(observer.dead).containsExactly(new Dead(id, FailureReason.RETRIES_EXHAUSTED,
                    "lease expired on delivery 1 of 1: the job was not settled before its lease ran out", 1));
            assertThat(log.contains("Job " + id + " in queue 'work' became a dead letter (retries_exhausted): its "
                    + "lease expired on delivery 1 of 1")).isTrue();
        }
        FailedMessage<Object> dead = queue.listFailed().get(0);
        assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
        assertThat(dead.lastError())
                .isEqualTo("lease expired on delivery 1 of 1: the job was not settled before its lease ran out");
    }

    @Test
    void anExpiredLeaseWithDeliveriesLeftIsReportedAndTheJobRuns() {
        SimpleQueue<Object> queue = clockedQueue(new DeliveryPolicy(Duration.ofSeconds(30), 2));
        long id = queue.put("abandoned once");
        queue.getNowait();
        clock.advance(Duration.ofSeconds(31));

        Worker<Object> worker = track(Worker.builder(queue, job -> { }).observer(observer)
                .pollInterval(Duration.ofMillis(20)).build());
        worker.start();
        await().atMost(BOUND).until(() -> observer.finished.size() == 1);

        assertThat(observer.expired).containsExactly(new Expired("work", id, 1, false));
        assertThat(observer.outcomes()).containsExactly(JobOutcome.ACKED);
    }

    @Test
    void handlerOutlivingAStopIsRedeliveredElsewhereAndItsLateResultDiscarded() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofMillis(500), 3);
        SimpleQueue<Object> queue = queue(policy);
        long id = queue.put("stubborn");
        Gate gate = new Gate(1);
        Worker<Object> stuck = track(Worker.builder(queue, job -> gate.enterIgnoringInterrupts())
                .heartbeatInterval(Duration.ofMillis(100)).observer(observer).build());
        gate.start(stuck);

        assertThat(stuck.stop(Duration.ofMillis(100))).isFalse();
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));

        // The stopped worker renews nothing any more, so the lease runs out and a new worker gets the job.
        SimpleQueue<Object> later = queue(policy);
        assertThat(attemptsOfTheRedelivery(later, WorkerObserver.NONE)).containsExactly(1);

        gate.release();
        await().atMost(BOUND).until(() -> observer.finished.size() == 1);
        assertThat(observer.finished.get(0).jobId()).isEqualTo(id);
        assertThat(observer.outcomes()).containsExactly(JobOutcome.DISCARDED);
        assertThat(later.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void stopsThatTimeOutNeverSpendTheLastDeliveryOfAJob() throws Exception {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofMinutes(10), 0);
        SimpleQueue<Object> queue = queue(policy);
        queue.put("last chance");
        for (int stop = 0; stop < 3; stop++) {
            Gate gate = new Gate(1);
            Worker<Object> stuck = track(Worker.builder(queue, job -> gate.enter()).build());
            gate.start(stuck);
            assertThat(stuck.stop(Duration.ofMillis(50))).isFalse();
        }

        // Shutting down is not a handler failure: the job must not become a dead letter because of it.
        assertThat(queue.listFailed()).isEmpty();
        assertThat(queue.getNowait().attempts()).isZero();
    }

    @Test
    void stopIsIdempotent() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        Worker<Object> worker = track(Worker.builder(queue, job -> { }).build());
        worker.start();

        assertThat(worker.stop()).isTrue();
        assertThat(worker.stop()).isTrue();
        worker.close();
        assertThat(worker.isRunning()).isFalse();
    }

    @Test
    void stopBeforeStartIsHarmless() {
        Worker<Object> worker = track(Worker.builder(queue(DeliveryPolicy.defaults()), job -> { }).build());

        assertThat(worker.stop()).isTrue();
        assertThat(worker.stop()).isTrue();
    }

    @Test
    void runReturnsWhenStoppedFromAnotherThread() throws Exception {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        Worker<Object> worker = track(Worker.builder(queue, job -> { }).build());
        Threads.Call<Boolean> run = Threads.start("runner", () -> {
            worker.run();
            return true;
        });
        await().atMost(BOUND).until(worker::isRunning);

        assertThat(worker.stop()).isTrue();

        assertThat(run.result().get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void closingTheQueueEndsARunningWorker() throws Exception {
        SimpleQueue<Object> queue = SimpleQueue.builder(database()).build();
        Worker<Object> worker = track(Worker.builder(queue, job -> { }).concurrency(2).name("closing").build());
        Threads.Call<Boolean> run = Threads.start("runner", () -> {
            worker.run();
            return true;
        });
        await().atMost(BOUND).until(() -> workerThreadsWaiting("localqueue-worker-closing-"));

        queue.close();

        assertThat(run.result().get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(worker.isRunning()).isFalse();
    }

    @Test
    void twoHundredJobsWithConcurrencyFourAreEachProcessedExactlyOnce() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        List<Long> ids = queue.putMany(IntStream.range(0, 200).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        Map<Long, AtomicInteger> calls = new ConcurrentHashMap<>();
        Worker<Object> worker = track(Worker.builder(queue,
                        job -> calls.computeIfAbsent(job.id(), key -> new AtomicInteger()).incrementAndGet())
                .concurrency(4).observer(observer).build());
        worker.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> queue.stats().equals(new QueueStats(0, 0, 200, 0)));
        assertThat(worker.stop()).isTrue();

        assertThat(calls.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(calls.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(observer.outcomes()).hasSize(200).containsOnly(JobOutcome.ACKED);
    }

    // ---------------------------------------------------------------- threads

    @Test
    void aGivenExecutorRunsTheHandlersAndOutlivesTheWorker() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        queue.putMany(IntStream.range(0, 20).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        AtomicInteger made = new AtomicInteger();
        ExecutorService executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "given-" + made.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<String> threads = new CopyOnWriteArrayList<>();
            Worker<Object> worker = track(Worker.builder(queue, job -> threads.add(Thread.currentThread().getName()))
                    .concurrency(3).executor(executor).observer(observer).build());
            worker.start();

            await().atMost(BOUND).until(() -> queue.stats().equals(new QueueStats(0, 0, 20, 0)));
            assertThat(worker.stop()).isTrue();

            assertThat(threads).hasSize(20).allSatisfy(name -> assertThat(name).startsWith("given-"));
            assertThat(made).hasValue(3);
            assertThat(executor.isShutdown()).as("the worker leaves a given executor alone").isFalse();
            assertThat(observer.outcomes()).hasSize(20).containsOnly(JobOutcome.ACKED);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void anExecutorThatRefusesThreadsFailsTheStartAndLeavesTheJobsAlone() {
        SimpleQueue<Object> queue = queue(DeliveryPolicy.defaults());
        queue.put("untouched");
        ExecutorService executor = Executors.newSingleThreadExecutor();
        executor.shutdown();
        Worker<Object> worker = track(Worker.builder(queue, job -> { }).concurrency(2).name("refused")
                .executor(executor).build());

        assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused").hasMessageContaining("2 of its 2 threads");
        assertThat(worker.isRunning()).isFalse();
        assertThat(worker.stop()).isTrue();
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void aNullExecutorIsRefusedByName() {
        Worker.Builder<Object> builder = Worker.builder(queue(DeliveryPolicy.defaults()), job -> { });

        assertThatThrownBy(() -> builder.executor(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("executor");
    }

    // ---------------------------------------------------------------- support

    private SimpleQueue<Object> queue(DeliveryPolicy policy) {
        return open(SimpleQueue.builder(database()).name("work").delivery(policy));
    }

    /** A queue on the test clock, which stands still until the test moves it. */
    private SimpleQueue<Object> clockedQueue(DeliveryPolicy policy) {
        return open(SimpleQueue.builder(database()).name("work").delivery(policy).clock(clock));
    }

    /** Waits until the observer saw one job finish, and checks that it finished with {@code outcome}. */
    private void awaitSingleOutcome(JobOutcome outcome) {
        await().atMost(BOUND).until(() -> observer.finished.size() == 1);
        assertThat(observer.outcomes()).containsExactly(outcome);
    }

    /** The job stays leased, now to the rival, until the rival acks it. */
    private static void assertLeasedUntilTheRivalAcks(SimpleQueue<Object> queue, SimpleQueue<Object> rival,
                                                      Job<Object> second) {
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        rival.ack(second);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    /** Works the one job off {@code later} with a new worker once its lease ran out; returns the attempts it saw. */
    private List<Integer> attemptsOfTheRedelivery(SimpleQueue<Object> later, WorkerObserver nextObserver) {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Worker<Object> next = track(Worker.builder(later, job -> attempts.add(job.attempts()))
                .pollInterval(Duration.ofMillis(50)).observer(nextObserver).build());
        next.start();
        await().atMost(BOUND).until(() -> later.stats().equals(new QueueStats(0, 0, 1, 0)));
        return attempts;
    }

    private <T> Worker<T> track(Worker<T> worker) {
        workers.add(worker);
        return worker;
    }

    private CountDownLatch latch(int count) {
        CountDownLatch latch = new CountDownLatch(count);
        latches.add(latch);
        return latch;
    }

    private String lastError(long id) throws SQLException {
        try (Connection connection = TestDatabases.connect(dir);
             PreparedStatement select = connection.prepareStatement("SELECT last_error FROM messages WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1);
            }
        }
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException ignored) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean workerThreadsWaiting(String prefix) {
        List<Thread> threads = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(prefix)).toList();
        return !threads.isEmpty() && threads.stream().allMatch(thread ->
                thread.getState() == Thread.State.WAITING || thread.getState() == Thread.State.TIMED_WAITING);
    }

    /** Holds handlers once they start until the test releases them; the tear-down releases them in any case. */
    private final class Gate {
        private final CountDownLatch started;
        private final CountDownLatch release = latch(1);

        Gate(int handlers) {
            started = latch(handlers);
        }

        /** Called by a handler: counts it as started, then waits for the release. */
        void enter() throws InterruptedException {
            started.countDown();
            release.await();
        }

        /** Like {@link #enter()}, but keeps waiting when interrupted, as a handler deaf to a stop would. */
        void enterIgnoringInterrupts() {
            started.countDown();
            awaitIgnoringInterrupts(release);
        }

        /** Starts the worker and waits until this gate holds its handlers. */
        void start(Worker<?> worker) throws InterruptedException {
            worker.start();
            awaitStarted();
        }

        void awaitStarted() throws InterruptedException {
            assertThat(started.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        }

        void release() {
            release.countDown();
        }
    }

    static final class InvalidInput extends IllegalArgumentException {
        InvalidInput(String message) {
            super(message);
        }
    }

    record Finished(long jobId, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
    }

    record Expired(String queue, long jobId, int attempts, boolean deadLettered) {
    }

    record Dead(long jobId, FailureReason reason, @Nullable String lastError, int attempts) {
    }

    static class Recorder implements WorkerObserver {
        final List<Finished> finished = new CopyOnWriteArrayList<>();
        final List<Expired> expired = new CopyOnWriteArrayList<>();
        final List<Dead> dead = new CopyOnWriteArrayList<>();

        @Override
        public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                    int attempts) {
            dead.add(new Dead(jobId, reason, lastError, attempts));
        }

        @Override
        public void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
            expired.add(new Expired(queueName, jobId, attempts, deadLettered));
        }

        @Override
        public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
            finished.add(new Finished(job.id(), outcome, handlerTime, error));
        }

        List<JobOutcome> outcomes() {
            return finished.stream().map(Finished::outcome).toList();
        }
    }
}
