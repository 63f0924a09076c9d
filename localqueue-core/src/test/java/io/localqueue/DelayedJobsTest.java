package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Delayed and scheduled jobs: due when their options say, never claimed before, in line by due time, and waited
 * for by an idle consumer without a poll.
 */
class DelayedJobsTest extends QueueTestBase {

    @Test
    void aDelayedJobIsNeverClaimedBeforeItsDueTimeAndIsClaimedOnceDue() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long id = queue.put("later", null, EnqueueOptions.defaults().delay(Duration.ofSeconds(30)));

        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMillis(29_999));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMillis(1));

        assertThat(queue.getNowait().id()).isEqualTo(id);
    }

    @Test
    void aJobScheduledAtAnInstantWaitsForItAndOneInThePastIsDueAtOnceInItsPlaceInLine() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long scheduled = queue.put("at noon", null, EnqueueOptions.defaults().runAt(clock.instant().plusSeconds(60)));
        long first = queue.put("first", null);
        long past = queue.put("past", null, EnqueueOptions.defaults().runAt(clock.instant().minusSeconds(3600)));

        assertThat(claimAndAck(queue)).isEqualTo(first);
        assertThat(claimAndAck(queue)).isEqualTo(past);
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofSeconds(60));
        assertThat(claimAndAck(queue)).isEqualTo(scheduled);
    }

    @Test
    void eachItemOfABatchIsDueWhenItsOwnOptionsSay() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        List<Long> ids = queue.putMany(List.of(
                EnqueueItem.<Object>of("in ten").withOptions(EnqueueOptions.defaults().delay(Duration.ofSeconds(10))),
                EnqueueItem.<Object>of("now"),
                EnqueueItem.<Object>of("in five").withOptions(EnqueueOptions.defaults().delay(Duration.ofSeconds(5)))));

        assertThat(claimAndAck(queue)).isEqualTo(ids.get(1));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofSeconds(10));
        assertThat(claimAndAck(queue)).as("the earlier due time first").isEqualTo(ids.get(2));
        assertThat(claimAndAck(queue)).isEqualTo(ids.get(0));
    }

    @Test
    void aDuplicateJobIdKeepsTheExistingJobsDueTime() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long id = queue.put("report", "daily-report", EnqueueOptions.defaults().delay(Duration.ofMinutes(5)));

        assertThat(queue.put("report", "daily-report")).isEqualTo(id);
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
    }

    @Test
    void aWaitingConsumerWakesAtTheDueTimeWithoutAnotherWrite() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(Clock.systemUTC()));
        CompletableFuture<Job<Object>> waiting = CompletableFuture.supplyAsync(() -> queue.get(Duration.ofSeconds(20)));
        Instant due = Instant.now().plusMillis(400);
        queue.put("soon", null, EnqueueOptions.defaults().runAt(due));

        Job<Object> job = waiting.get(20, TimeUnit.SECONDS);
        Instant claimedAt = Instant.now();

        assertThat(job.data()).isEqualTo("soon");
        assertThat(claimedAt).as("never early").isAfterOrEqualTo(due);
        assertThat(Duration.between(due, claimedAt)).as("woken at the due time, not by a poll")
                .isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void badOptionsAreRefusedNamingTheParameter() {
        assertThatThrownBy(() -> EnqueueOptions.defaults().delay(Duration.ofMillis(-1)))
                .isInstanceOfSatisfying(InvalidArgumentException.class,
                        refused -> assertThat(refused.parameter()).isEqualTo("delay"));
        assertThatThrownBy(() -> EnqueueOptions.defaults().delay(Duration.ofMillis(Long.MAX_VALUE)))
                .isInstanceOfSatisfying(InvalidArgumentException.class,
                        refused -> assertThat(refused.parameter()).isEqualTo("delay"))
                .hasMessageContaining("delay exceeds the supported maximum");
        assertThatThrownBy(() -> EnqueueOptions.defaults().runAt(null))
                .isInstanceOfSatisfying(InvalidArgumentException.class,
                        refused -> assertThat(refused.parameter()).isEqualTo("runAt"));
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        assertThatThrownBy(() -> queue.put("x", null, EnqueueOptions.defaults().delay(Duration.ofSeconds(Long.MAX_VALUE))))
                .isInstanceOfSatisfying(InvalidArgumentException.class,
                        refused -> assertThat(refused.parameter()).isEqualTo("delay"));
        assertThatThrownBy(() -> queue.put("x", null, EnqueueOptions.defaults().runAt(Instant.MAX)))
                .isInstanceOfSatisfying(InvalidArgumentException.class,
                        refused -> assertThat(refused.parameter()).isEqualTo("runAt"))
                .hasMessageContaining("runAt lies beyond what a queue can store");
        assertThatThrownBy(() -> queue.put("x", null, (EnqueueOptions) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("options");
        assertThat(queue.stats().total()).isZero();
    }

    private static long claimAndAck(SimpleQueue<Object> queue) {
        Job<Object> job = queue.getNowait();
        queue.ack(job);
        return job.id();
    }

    @Test
    void diagnosticsCountDelayedJobsApartAndGiveTheNextDueTime() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        assertThat(queue.diagnostics().delayed()).isZero();
        assertThat(queue.diagnostics().nextDueAt()).isNull();
        queue.put("now");
        queue.put("in ten", null, EnqueueOptions.defaults().delay(Duration.ofSeconds(10)).priority(5));
        queue.put("in thirty", null, EnqueueOptions.defaults().delay(Duration.ofSeconds(30)).priority(-5));

        QueueDiagnostics diagnostics = queue.diagnostics();

        assertThat(diagnostics.ready()).as("every waiting job, as the Python library counts").isEqualTo(3);
        assertThat(diagnostics.delayed()).isEqualTo(2);
        assertThat(diagnostics.nextDueAt()).isEqualTo(clock.instant().plusSeconds(10));
        assertThat(diagnostics.toMap()).containsEntry("delayed", 2L)
                .containsEntry("next_due_at", clock.instant().plusSeconds(10).toEpochMilli() / 1000.0);
        clock.advance(Duration.ofSeconds(10));
        assertThat(queue.diagnostics().delayed()).isEqualTo(1);
        assertThat(queue.diagnostics().nextDueAt()).isEqualTo(clock.instant().plusSeconds(20));
    }
}
