package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.FailureReason;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.RetryLaterException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hooks around failures: a ListenerErrorHandler before settlement, DeadLetterHandlers after a dead letter. */
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

    static class FailingListener {
        @QueueListener(queue = "failing", id = "failing")
        void handle(String payload) {
            throw new IllegalStateException("broken");
        }
    }
}
