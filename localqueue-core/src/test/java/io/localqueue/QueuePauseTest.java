package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A queue paused for every process: no claim takes its jobs, puts continue, leased jobs settle, the pause outlasts
 * the queue objects, and a resume lets waiting consumers claim at once; other queues of the store run on.
 */
class QueuePauseTest extends QueueTestBase {

    @Test
    void aPausedQueueHandsOutNothingWhilePutsContinueAndResumeLetsClaimsRun() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long first = queue.put("first");

        assertThat(queue.pause()).isTrue();
        assertThat(queue.pause()).as("paused already").isFalse();
        long second = queue.put("second");

        assertThat(queue.isPaused()).isTrue();
        QueueDiagnostics paused = queue.diagnostics();
        assertThat(paused.pausedAt()).isEqualTo(clock.instant());
        assertThat(paused.pausedBy()).startsWith(ProcessHandle.current().pid() + "@");
        assertThat(paused.toMap()).containsEntry("paused_by", paused.pausedBy());
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class)
                .hasMessageContaining("queue 'mail' is paused");
        assertThat(queue.stats().ready()).isEqualTo(2);

        assertThat(queue.resume()).isTrue();
        assertThat(queue.resume()).as("running already").isFalse();
        assertThat(queue.isPaused()).isFalse();
        assertThat(queue.diagnostics().pausedAt()).isNull();
        assertThat(queue.diagnostics().pausedBy()).isNull();
        Job<Object> job = queue.getNowait();
        assertThat(job.id()).isEqualTo(first);
        queue.ack(job);
        assertThat(queue.getNowait().id()).isEqualTo(second);
    }

    @Test
    void aPausedQueueIsNamedEvenWhenItHoldsNoJobUntilItIsResumed() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        open(SimpleQueue.builder(database()).name("other").clock(clock)).put("x");
        assertThat(database().queueNames()).containsExactly("other");

        queue.pause();
        assertThat(database().queueNames()).as("paused, and empty").containsExactly("mail", "other");
        queue.resume();
        queue.put("job");
        queue.ack(queue.getNowait());
        queue.pause();
        clock.advance(Duration.ofSeconds(1));
        assertThat(queue.purge(Duration.ZERO)).isEqualTo(1);
        assertThat(database().queueNames()).as("paused, and emptied").containsExactly("mail", "other");

        queue.resume();
        assertThat(database().queueNames()).containsExactly("other");
    }

    @Test
    void aJobLeasedBeforeThePauseRunsToItsEndAndSettles() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        queue.put("leased");
        queue.put("failing");
        Job<Object> leased = queue.getNowait();
        Job<Object> failing = queue.getNowait();
        queue.put("waiting");

        queue.pause();
        queue.ack(leased);
        queue.nack(failing);

        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 0, 1, 0));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
    }

    @Test
    void thePauseIsStoredSoAnotherQueueObjectSeesItAndOtherQueuesRunOn() {
        SimpleQueue<Object> pausing = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        SimpleQueue<Object> other = open(SimpleQueue.builder(database()).name("reports").clock(clock));
        pausing.put("mail");
        other.put("report");
        pausing.pause();
        pausing.close();

        SimpleQueue<Object> reopened = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        assertThat(reopened.isPaused()).isTrue();
        assertThatThrownBy(reopened::getNowait).isInstanceOf(QueueEmptyException.class);
        assertThat(other.isPaused()).isFalse();
        assertThat(other.getNowait().data()).isEqualTo("report");

        reopened.resume();
        assertThat(reopened.getNowait().data()).isEqualTo("mail");
    }

    @Test
    void aPrioritizedOrDelayedQueueIsPausedToo() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        queue.put("urgent", null, EnqueueOptions.defaults().priority(-5));
        queue.put("later", null, EnqueueOptions.defaults().delay(Duration.ofSeconds(5)));
        queue.pause();
        clock.advance(Duration.ofSeconds(5));

        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);

        queue.resume();
        assertThat(queue.getNowait().data()).isEqualTo("urgent");
        assertThat(queue.getNowait().data()).isEqualTo("later");
    }

    @Test
    void aConsumerWaitingOnAPausedQueueClaimsOnceItIsResumed() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(Clock.systemUTC()));
        SimpleQueue<Object> operator = open(SimpleQueue.builder(database()).name("mail").clock(Clock.systemUTC()));
        queue.put("held");
        operator.pause();
        ExecutorService consumer = Executors.newSingleThreadExecutor();
        try {
            Future<Job<Object>> waiting = consumer.submit(() -> queue.get(Duration.ofSeconds(30)));
            assertThat(CompletableFuture.supplyAsync(() -> {
                try {
                    return waiting.get(300, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException stillWaiting) {
                    return null;
                } catch (Exception failed) {
                    throw new IllegalStateException(failed);
                }
            }).get()).as("nothing is claimed while paused").isNull();

            operator.resume();

            assertThat(waiting.get(10, TimeUnit.SECONDS).data()).isEqualTo("held");
        } finally {
            consumer.shutdownNow();
        }
    }
}
