package io.localqueue.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.localqueue.DeliveryPolicy;
import io.localqueue.Job;
import io.localqueue.QueueStats;
import io.localqueue.QueueTestBase;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What the library logs at INFO and above never carries a payload or a delivery's receipt (its fencing token). */
class LogHygieneTest extends QueueTestBase {

    private static final String SECRET = "card-4111-1111-1111-1111";

    @Test
    void logsAtInfoAndAboveCarryNeitherPayloadsNorReceipts() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        root.addAppender(appender);
        Set<String> receipts = ConcurrentHashMap.newKeySet();
        try {
            SimpleQueue<String> queue = open(SimpleQueue.builder(dir, String.class).name("payments")
                    .delivery(new DeliveryPolicy(Duration.ofSeconds(30), 1)).clock(clock));
            for (String kind : List.of("ok", "retry", "permanent", "slow")) {
                queue.put(kind + " " + SECRET, kind + "-" + SECRET);
            }
            Job<String> abandoned = queue.getNowait(); // its process dies: the lease expires below
            receipts.add(abandoned.receipt());
            clock.advance(Duration.ofSeconds(31));
            CountDownLatch slowStarted = new CountDownLatch(1);
            Worker<String> worker = Worker.builder(queue, job -> {
                receipts.add(job.receipt());
                if (job.data().startsWith("retry")) {
                    throw new IllegalStateException("declined");
                }
                if (job.data().startsWith("permanent")) {
                    throw new IllegalArgumentException("unknown account");
                }
                if (job.data().startsWith("slow")) {
                    slowStarted.countDown();
                    Thread.sleep(60_000);
                }
            }).permanentErrors(IllegalArgumentException.class).pollInterval(Duration.ofMillis(10)).build();
            worker.start();
            slowStarted.await();
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.stats().processing() == 1
                    && queue.stats().failed() >= 1);
            worker.stop(Duration.ofMillis(50)); // interrupts the slow handler: logged as a release
            assertThat(queue.stats()).isNotEqualTo(new QueueStats(0, 0, 0, 0));
        } finally {
            root.detachAppender(appender);
        }

        List<ILoggingEvent> visible = appender.list.stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(Level.INFO)).toList();
        assertThat(visible).as("the run logged retries, a dead letter, an expired lease and a release").hasSizeGreaterThan(3);
        for (ILoggingEvent event : visible) {
            String text = everything(event);
            assertThat(text).as("logged: %s", event.getFormattedMessage()).doesNotContain(SECRET);
            for (String receipt : receipts) {
                assertThat(text).as("logged: %s", event.getFormattedMessage()).doesNotContain(receipt);
            }
        }
    }

    private static String everything(ILoggingEvent event) {
        StringBuilder text = new StringBuilder(event.getFormattedMessage());
        for (IThrowableProxy cause = event.getThrowableProxy(); cause != null; cause = cause.getCause()) {
            text.append('\n').append(cause.getMessage());
        }
        return text.toString();
    }
}
