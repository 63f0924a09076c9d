package io.localqueue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.EnqueueOptions;
import io.localqueue.JobOutcome;
import io.localqueue.QueueStats;
import io.localqueue.ReadyJob;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.test.Mailer.Mail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(classes = KitTestApplication.class, properties = "localqueue.listener.poll-interval=100ms")
@AutoConfigureLocalQueue
class AutoConfigureLocalQueueTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Autowired
    LocalQueueTemplate queues;

    @Autowired
    LocalQueueTestSupport localQueue;

    @Autowired
    LocalQueueRegistry registry;

    @Autowired
    Mailer mailer;

    @BeforeEach
    void closeTheGate() {
        mailer.closeGate();
    }

    @AfterEach
    void openTheGate() {
        mailer.openGate();
    }

    @Test
    void theContextGetsATemporaryQueueDirectoryOfItsOwn() {
        Path directory = localQueue.directory();

        assertThat(directory).startsWith(Path.of(System.getProperty("java.io.tmpdir")));
        assertThat(directory.getFileName().toString()).startsWith("localqueue-test-");
        assertThat(Files.exists(directory.resolve("localqueue.db"))).isTrue();
    }

    @Test
    void drainWaitsForTheListenersAndReturnsWhatTheyDid() {
        long first = queues.put(Mailer.QUEUE, new Mail("a@example.com", "one"));
        long second = queues.put(Mailer.QUEUE, new Mail("b@example.com", "two"));

        List<HandledJob> handled = localQueue.drain(Mailer.QUEUE, BOUND);

        assertThat(handled).extracting(HandledJob::jobId).containsExactlyInAnyOrder(first, second);
        assertThat(handled).extracting(HandledJob::outcome).containsOnly(JobOutcome.ACKED);
        assertThat(handled).extracting(job -> job.payload(Mail.class).subject()).containsExactlyInAnyOrder("one", "two");
        assertThat(mailer.threads).allMatch(thread -> thread.startsWith("localqueue-worker-"));
        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).isEmpty();
    }

    @Test
    void aPermanentErrorIsReportedAsADeadLetter() {
        long id = queues.put(Mailer.QUEUE, new Mail("nobody@nowhere.invalid", "lost"));

        List<HandledJob> handled = localQueue.drain(Mailer.QUEUE, BOUND);

        assertThat(handled).singleElement().satisfies(job -> {
            assertThat(job.jobId()).isEqualTo(id);
            assertThat(job.outcome()).isEqualTo(JobOutcome.DEAD_LETTERED);
            assertThat(job.error()).isInstanceOf(Mailer.Undeliverable.class);
        });
    }

    @Test
    void aRetryDelayedIntoTheFutureWaitsForTheClock() {
        long id = queues.put(Mailer.QUEUE, new Mail("busy@example.com", "later"));

        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.RETRIED);
        Mail waiting = localQueue.assertEnqueued(Mailer.QUEUE, Mail.class, mail -> mail.subject().equals("later"));
        assertThat(waiting.to()).isEqualTo("busy@example.com");

        localQueue.clock().advance(Mailer.BUSY_DELAY);

        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).singleElement().satisfies(job -> {
            assertThat(job.jobId()).isEqualTo(id);
            assertThat(job.attempts()).isEqualTo(1);
            assertThat(job.outcome()).isEqualTo(JobOutcome.ACKED);
        });
    }

    @Test
    void drainThatTimesOutSaysWhatIsStillRunning() {
        queues.put(Mailer.QUEUE, new Mail("slow@example.com", "held"));

        assertThatThrownBy(() -> localQueue.drain(Mailer.QUEUE, Duration.ofMillis(300)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("queue 'mail' did not drain within PT0.3S")
                .hasMessageContaining("1 job(s) under a lease")
                .hasMessageContaining("listener 'mailer.send' runs 1 job(s)");

        mailer.openGate();
        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.ACKED);
    }

    @Test
    void drainOfAQueueNoListenerConsumesFailsNamingIt() {
        queues.put("orphans", "nobody takes me");

        assertThatThrownBy(() -> localQueue.drain("orphans", BOUND))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("queue 'orphans' has no @QueueListener")
                .hasMessageContaining("1 due job(s) waiting [#");
        assertThat(localQueue.drain("untouched", BOUND)).isEmpty();
    }

    @Test
    void assertEnqueuedFindsAWaitingPayloadOrListsWhatWaits() {
        queues.put("outbox", new Mail("c@example.com", "first"));
        queues.put("outbox", new Mail("d@example.com", "second"));

        Mail found = localQueue.assertEnqueued("outbox", Mail.class, mail -> mail.to().startsWith("d@"));

        assertThat(found.subject()).isEqualTo("second");
        assertThat(localQueue.enqueued("outbox", Mail.class)).extracting(Mail::subject)
                .containsExactly("first", "second");
        assertThatThrownBy(() -> localQueue.assertEnqueued("outbox", Mail.class, mail -> mail.to().isEmpty()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no job waiting in queue 'outbox' matches; it holds 2: [#")
                .hasMessageContaining("Mail[to=c@example.com, subject=first]");
        assertThatThrownBy(() -> localQueue.assertEnqueued("empty", Mail.class, mail -> true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("queue 'empty' has no job waiting");
        assertThat(queues.stats("outbox")).isEqualTo(new QueueStats(2, 0, 0, 0));
    }

    @Test
    void assertEnqueuedWithOptionsChecksPriorityKeyAndDueTime() {
        EnqueueOptions urgentLater = EnqueueOptions.defaults().priority(-5).concurrencyKey("tenant-1")
                .delay(Duration.ofMinutes(10));
        queues.put("reminders", new Mail("e@example.com", "plain"));
        queues.put("reminders", new Mail("e@example.com", "urgent"), null, urgentLater);

        ReadyJob<Mail> found = localQueue.assertEnqueued("reminders", Mail.class, mail -> mail.to().startsWith("e@"),
                urgentLater);

        assertThat(found.data().subject()).isEqualTo("urgent");
        assertThat(found.availableAt()).isEqualTo(localQueue.clock().instant().plus(Duration.ofMinutes(10)));
        localQueue.assertEnqueued("reminders", Mail.class, mail -> mail.subject().equals("plain"),
                EnqueueOptions.defaults());
        assertThatThrownBy(() -> localQueue.assertEnqueued("reminders", Mail.class,
                mail -> mail.subject().equals("plain"), EnqueueOptions.defaults().priority(3)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("matches EnqueueOptions[due at once, priority=3]")
                .hasMessageContaining("priority -5 key tenant-1");
    }

    @Test
    void theQueuesRunOnTheKitsClock() {
        assertThat(registry.clock()).isSameAs(localQueue.clock());
    }
}
