package io.localqueue.multiprocess;

import io.localqueue.testsupport.ChildProcess;
import static io.localqueue.multiprocess.QueueChild.ACK;
import static io.localqueue.multiprocess.QueueChild.ACKED;
import static io.localqueue.multiprocess.QueueChild.ACK_FOREIGN;
import static io.localqueue.multiprocess.QueueChild.CLAIMED;
import static io.localqueue.multiprocess.QueueChild.CLAIM_AND_WAIT;
import static io.localqueue.multiprocess.QueueChild.CONSUME;
import static io.localqueue.multiprocess.QueueChild.DONE;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.LEASE_EXPIRED;
import static io.localqueue.multiprocess.QueueChild.PAUSED;
import static io.localqueue.multiprocess.QueueChild.PAUSE_QUEUE;
import static io.localqueue.multiprocess.QueueChild.PUT;
import static io.localqueue.multiprocess.QueueChild.PUT_DELAYED;
import static io.localqueue.multiprocess.QueueChild.PUT_ONE;
import static io.localqueue.multiprocess.QueueChild.READY;
import static io.localqueue.multiprocess.QueueChild.RESUME_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.ForeignJobs;
import io.localqueue.Job;
import io.localqueue.LeaseExpiredException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Consumers in separate JVMs sharing one queue file: exclusive claims, crash recovery, wake-ups and fencing. */
class MultiProcessConsumerTest extends MultiProcessTestBase {

    private static final int JOBS = 600;
    private static final int CONSUMERS = 3;

    @Test
    void consumerProcessesClaimEveryJobExactlyOnce() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            List<Long> ids = queue.putMany(IntStream.range(0, JOBS).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
            List<ChildProcess> consumers = children.startReady(CONSUMERS, CONSUME, dir);
            ChildProcesses.sendAll(consumers, GO);

            List<Long> claimed = new ArrayList<>();
            List<Long> acked = new ArrayList<>();
            Map<String, Integer> takenBy = new LinkedHashMap<>();
            for (ChildProcess consumer : consumers) {
                takenBy.put(consumer.label(), readConsumerLog(consumer, claimed, acked));
                consumer.awaitSuccess();
            }

            assertThat(claimed).as("ids claimed across consumers").hasSize(JOBS).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(ids);
            assertThat(acked).as("ids acked across consumers").containsExactlyInAnyOrderElementsOf(ids);
            assertThat(takenBy.values()).as("jobs taken per consumer %s", takenBy).allSatisfy(
                    taken -> assertThat(taken).isPositive());
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, JOBS, 0));
        }
    }

    /** Reads CLAIMED/ACKED lines up to DONE and returns how many jobs this consumer took. */
    private static int readConsumerLog(ChildProcess consumer, List<Long> claimed, List<Long> acked) {
        int taken = 0;
        while (true) {
            String line = consumer.nextLine();
            String[] words = line.split(" ");
            switch (words[0]) {
                case CLAIMED -> {
                    assertThat(words[2]).as("attempts of a first delivery, from %s: %s", consumer, line).isEqualTo("0");
                    claimed.add(Long.parseLong(words[1]));
                    taken++;
                }
                case ACKED -> acked.add(Long.parseLong(words[1]));
                case DONE -> {
                    assertThat(Integer.parseInt(words[1])).as("count reported by %s", consumer).isEqualTo(taken);
                    return taken;
                }
                default -> fail("unexpected line from " + consumer + ": " + line);
            }
        }
    }

    @Test
    void jobOfAConsumerKilledBeforeAckIsRedeliveredWithThatDeliveryCounted() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            long id = queue.put("work");
            ChildProcess consumer = children.start("doomed-consumer", CLAIM_AND_WAIT, dir, SimpleQueue.DEFAULT_NAME, 2000);
            consumer.expect(READY);
            consumer.send(GO);
            List<String> claim = consumer.expect(CLAIMED);
            assertThat(claim.subList(0, 2)).containsExactly(String.valueOf(id), "0");

            assertThat(consumer.killHard()).as("exit status of a JVM killed by SIGKILL").isEqualTo(128 + 9);
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));

            Job<Object> redelivered = queue.get(Duration.ofSeconds(15));
            assertThat(redelivered.id()).isEqualTo(id);
            assertThat(redelivered.attempts()).isEqualTo(1);
            assertThat(redelivered.data()).isEqualTo("work");
            assertThat(redelivered.receipt()).isNotEqualTo(claim.get(2));
            assertThatThrownBy(() -> queue.ack(ForeignJobs.of(queue, id, claim.get(2))))
                    .as("the killed consumer's receipt").isInstanceOf(LeaseExpiredException.class);
            queue.ack(redelivered);
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        }
    }

    @Test
    void getBlockedInThisProcessWakesWhenAnotherProcessPuts() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            ChildProcess producer = children.start("producer", PUT_ONE, dir);
            producer.expect(READY);
            CompletableFuture<Job<Object>> got = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    got.complete(queue.get(Duration.ofSeconds(30)));
                } catch (Throwable failure) {
                    got.completeExceptionally(failure);
                }
            }, "blocked-get");
            waiter.setDaemon(true);
            waiter.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING
                    || waiter.getState() == Thread.State.WAITING);

            producer.send(GO);
            List<String> put = producer.expect(PUT);
            producer.awaitSuccess();

            await().atMost(Duration.ofSeconds(10)).until(got::isDone);
            Job<Object> job = got.join();
            assertThat(job.id()).isEqualTo(Long.parseLong(put.get(0)));
            assertThat(job.data()).isEqualTo(put.get(1));
            assertThat(job.attempts()).isZero();
        }
    }

    @Test
    void getBlockedInThisProcessWakesAtTheDueTimeOfAJobAnotherProcessPutForLater() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            ChildProcess producer = children.start("delayed-producer", PUT_DELAYED, dir, 1_500);
            producer.expect(READY);
            CompletableFuture<Job<Object>> got = CompletableFuture.supplyAsync(() -> queue.get(Duration.ofSeconds(30)));

            producer.send(GO);
            List<String> put = producer.expect(PUT);
            producer.awaitSuccess();
            Instant due = Instant.ofEpochMilli(Long.parseLong(put.get(2)));

            Job<Object> job = got.orTimeout(30, TimeUnit.SECONDS).join();
            Instant claimedAt = Instant.now();
            assertThat(job.id()).isEqualTo(Long.parseLong(put.get(0)));
            assertThat(job.dueAt()).isEqualTo(due);
            assertThat(job.claimedAt()).as("never early").isAfterOrEqualTo(due);
            assertThat(Duration.between(due, claimedAt)).as("woken at the due time, not by a later look")
                    .isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void aQueuePausedByAnotherProcessHandsOutNothingHereUntilThatProcessResumesIt() throws Exception {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            queue.put("held");
            ChildProcess pauser = children.start("pauser", PAUSE_QUEUE, dir);
            pauser.expect(READY);
            pauser.send(GO);
            assertThat(pauser.expect(PAUSED)).containsExactly("true");
            pauser.awaitSuccess();

            CompletableFuture<Job<Object>> got = CompletableFuture.supplyAsync(() -> queue.get(Duration.ofSeconds(60)));
            assertThatThrownBy(() -> got.get(1_500, TimeUnit.MILLISECONDS)).as("nothing is claimed while paused")
                    .isInstanceOf(TimeoutException.class);
            assertThat(queue.stats().ready()).isEqualTo(1);

            ChildProcess resumer = children.start("resumer", RESUME_QUEUE, dir);
            resumer.expect(READY);
            resumer.send(GO);
            assertThat(resumer.expect(PAUSED)).containsExactly("false");
            resumer.awaitSuccess();

            assertThat(got.orTimeout(10, TimeUnit.SECONDS).join().data()).isEqualTo("held");
        }
    }

    @Test
    void processOnAnotherQueueNameCannotAckAJobClaimedFromThisQueue() {
        try (SimpleQueue<Object> beta = SimpleQueue.builder(dir).name("beta").build();
             SimpleQueue<Object> alpha = SimpleQueue.builder(dir).name("alpha").build()) {
            long id = beta.put("beta-work");
            alpha.put("alpha-work");
            ChildProcess betaConsumer = children.start("beta-consumer", CLAIM_AND_WAIT, dir, "beta", 60_000);
            betaConsumer.expect(READY);
            betaConsumer.send(GO);
            List<String> claim = betaConsumer.expect(CLAIMED);
            assertThat(claim.get(0)).isEqualTo(String.valueOf(id));

            ChildProcess alphaProcess = children.start("alpha-process", ACK_FOREIGN, dir, "alpha", id, claim.get(2));
            alphaProcess.expect(READY);
            alphaProcess.send(GO);
            assertThat(alphaProcess.nextLine()).isEqualTo(LEASE_EXPIRED + " " + id);
            alphaProcess.awaitSuccess();
            assertThat(beta.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
            assertThat(alpha.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));

            betaConsumer.send(ACK);
            assertThat(betaConsumer.nextLine()).isEqualTo(ACKED + " " + id);
            betaConsumer.awaitSuccess();
            assertThat(beta.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
            assertThat(alpha.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        }
    }
}
