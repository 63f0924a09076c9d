package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.localqueue.FailureReason;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.RetryLaterException;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.RejectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hooks around failures: a ListenerErrorHandler before settlement, DeadLetterHandlers and JobDeadLetteredEvent
 * after every dead letter of listeners and bus handlers alike, told off the thread that records settlements.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenerHooksTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void anErrorHandlerSeesTheFailureAndMayDecideTheOutcomeByThrowing() {
        List<String> seen = new CopyOnWriteArrayList<>();
        ListenerErrorHandler handler = (listenerId, job, error) -> {
            seen.add(listenerId + " " + job.data() + " " + error.getMessage());
            throw new RetryLaterException(Duration.ofHours(1));
        };
        onTempDir().withPropertyValues("localqueue.delivery.max-retries=3")
                .withBean(ListenerErrorHandler.class, () -> handler)
                .withBean(FailingListener.class, FailingListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("failing", "x");

                    await().atMost(BOUND).until(() -> seen.size() == 1);
                    await().atMost(BOUND).until(() -> template.stats("failing").equals(new QueueStats(1, 0, 0, 0)));
                    assertThat(seen).containsExactly("failing x broken");
                    assertThatThrownBy(context.getBean(LocalQueueRegistry.class).queue("failing")::getNowait)
                            .as("delayed by the handler's RetryLaterException").isInstanceOf(QueueEmptyException.class);
                });
    }

    @Test
    void everyDeadLetterHandlerHearsOfEachDeadLetterEvenWhenOneThrows() {
        List<JobDeadLetteredEvent> heard = new CopyOnWriteArrayList<>();
        onTempDir().withPropertyValues("localqueue.delivery.max-retries=0")
                .withBean("throwing", DeadLetterHandler.class, () -> event -> {
                    throw new IllegalStateException("pager down");
                })
                .withBean("recording", DeadLetterHandler.class, () -> heard::add)
                .withBean(FailingListener.class, FailingListener::new).run(context -> {
                    long id = context.getBean(LocalQueueTemplate.class).put("failing", "x");

                    await().atMost(BOUND).until(() -> heard.size() == 1);
                    assertThat(heard.get(0).getJobId()).isEqualTo(id);
                    assertThat(heard.get(0).getReason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
                    assertThat(heard.get(0).getLastError()).contains("broken");
                });
    }

    @Test
    void aDeadLetterHandlerThatHangsHoldsNoOtherListenersAcknowledgements() {
        CountDownLatch paging = new CountDownLatch(1);
        CountDownLatch pagerAnswers = new CountDownLatch(1);
        AtomicReference<String> pagedOn = new AtomicReference<>();
        onTempDir().withPropertyValues("localqueue.delivery.max-retries=0")
                .withBean(DeadLetterHandler.class, () -> event -> {
                    pagedOn.set(Thread.currentThread().getName());
                    paging.countDown();
                    try {
                        pagerAnswers.await(); // a pager call that hangs
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                })
                .withBean(FailingListener.class, FailingListener::new)
                .withBean(CountingListener.class, CountingListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    try {
                        template.put("failing", "x");
                        assertThat(paging.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

                        template.putAll("counted", List.of("a", "b", "c", "d", "e"));
                        await().atMost(BOUND).until(() -> template.stats("counted").acked() == 5);

                        assertThat(pagerAnswers.getCount()).as("the pager still hangs").isEqualTo(1);
                        assertThat(context.getBean(CountingListener.class).handled).hasSize(5);
                        assertThat(pagedOn.get()).isEqualTo("localqueue-report-failing");
                    } finally {
                        pagerAnswers.countDown();
                    }
                });
    }

    @Test
    void aPayloadTheListenerCannotReadAndABusDeliveryItRejectsReachTheSameHooks() {
        List<JobDeadLetteredEvent> heard = new CopyOnWriteArrayList<>();
        onTempDir().withBean(DeadLetterHandler.class, () -> heard::add)
                .withBean(FailingListener.class, FailingListener::new)
                .withBean(RejectingHandler.class, RejectingHandler::new).run(context -> {
                    try (SimpleQueue<byte[]> raw = SimpleQueue.builder(context.getBean(LocalQueueDatabase.class),
                            Serializer.bytes()).name("failing").build()) {
                        raw.put("not json at all".getBytes(StandardCharsets.UTF_8));
                    }
                    context.getBean(EventBus.class).dispatch(new Refused("u-1"));

                    await().atMost(BOUND).until(() -> heard.size() == 2);
                    assertThat(heard).extracting(JobDeadLetteredEvent::getReason, JobDeadLetteredEvent::getSubscription)
                            .containsExactlyInAnyOrder(tuple(FailureReason.INVALID_PAYLOAD, null),
                                    tuple(FailureReason.REJECTED, "refused"));
                    JobDeadLetteredEvent rejected = heard.stream()
                            .filter(event -> event.getReason() == FailureReason.REJECTED).findFirst().orElseThrow();
                    assertThat(rejected.getQueue()).isEqualTo(context.getBean(EventBus.class)
                            .subscription("refused").queueName());
                    assertThat(rejected.getLastError()).isEqualTo("no such user");
                });
    }

    @BusEvent(name = "refused")
    record Refused(String userId) {
    }

    static class RejectingHandler {
        @EventHandler
        void handle(Refused event) {
            throw new RejectException("no such user");
        }
    }

    static class CountingListener {
        final List<String> handled = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "counted", id = "counted")
        void handle(String payload) {
            handled.add(payload);
        }
    }

    static class FailingListener {
        @QueueListener(queue = "failing", id = "failing")
        void handle(String payload) {
            throw new IllegalStateException("broken");
        }
    }
}
