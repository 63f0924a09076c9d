package io.localqueue.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailedMessage;
import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.QueueStats;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.test.Mailer.Mail;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(classes = KitTestApplication.class)
@AutoConfigureLocalQueue(inline = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InlineModeTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Autowired
    LocalQueueTemplate queues;

    @Autowired
    LocalQueueTestSupport localQueue;

    @Autowired
    LocalQueueRegistry registry;

    @Autowired
    QueueListenerEndpointRegistry listeners;

    @Autowired
    Mailer mailer;

    @Test
    @Order(1)
    void putRunsTheListenerOnTheCallingThreadBeforeItReturns() {
        queues.put(Mailer.QUEUE, new Mail("a@example.com", "inline"));

        assertThat(mailer.sent).extracting(Mail::subject).containsExactly("inline");
        assertThat(mailer.threads).containsExactly(Thread.currentThread().getName());
        assertThat(queues.stats(Mailer.QUEUE)).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    @Order(2)
    void aDrainSeesOnlyTheDeliveriesOfItsOwnTest() {
        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).isEmpty();
    }

    @Test
    @Order(3)
    void listenersDoNotStartOnTheirOwn() {
        assertThat(listeners.isAutoStartup()).isFalse();
        assertThat(listeners.isRunning()).isFalse();
        assertThat(listeners.getListenerContainers()).isNotEmpty().noneMatch(QueueListenerContainer::isRunning);
    }

    @Test
    @Order(4)
    void aPermanentErrorMakesADeadLetterAsInProduction() {
        long id = queues.put(Mailer.QUEUE, new Mail("nobody@nowhere.invalid", "lost"));

        assertThat(registry.queue(Mailer.QUEUE, Mail.class).listFailed()).filteredOn(dead -> dead.id() == id)
                .singleElement().extracting(FailedMessage::reason).isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.DEAD_LETTERED);
    }

    @Test
    @Order(5)
    void aDelayedRetryRunsOnTheDrainAfterTheClockPassedIt() {
        queues.putAll(Mailer.QUEUE, java.util.List.of(new Mail("busy@example.com", "later")));

        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.RETRIED);
        assertThat(mailer.sent).extracting(Mail::subject).doesNotContain("later");

        localQueue.clock().advance(Mailer.BUSY_DELAY.minusSeconds(1));
        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).isEmpty();
        localQueue.clock().advance(Duration.ofSeconds(1));

        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.ACKED);
        assertThat(mailer.sent).extracting(Mail::subject).contains("later");
    }

    @Test
    @Order(6)
    void enqueueAndTheImmediateTemplateRunTheListenerInlineToo() {
        queues.enqueue(Mailer.QUEUE, new Mail("c@example.com", "enqueued"));
        queues.immediate().put(Mailer.QUEUE, new Mail("d@example.com", "immediate"));

        assertThat(mailer.sent).extracting(Mail::subject).contains("enqueued", "immediate");
        assertThat(localQueue.drain(Mailer.QUEUE, BOUND)).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.ACKED, JobOutcome.ACKED);
    }
}
