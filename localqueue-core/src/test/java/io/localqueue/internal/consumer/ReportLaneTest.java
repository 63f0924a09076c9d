package io.localqueue.internal.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.WorkerLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** A consumer's reports run one at a time, in order, on a thread of their own; a slow one is logged once. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReportLaneTest {

    private static final String LOGGER = "report-lane-test";

    private final WorkerLog logged = new WorkerLog(LOGGER);
    private final AtomicLong nanos = new AtomicLong();
    private final ReportLane lane = new ReportLane(LoggerFactory.getLogger(LOGGER), "worker 'mail'",
            "localqueue-report-mail", "observer X", nanos::get);

    @AfterEach
    void detach() {
        logged.close();
    }

    @Test
    void reportsRunInOrderOnTheLanesThread() {
        List<String> seen = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 50; i++) {
            int report = i;
            lane.report(() -> "report " + report, () -> seen.add(Thread.currentThread().getName() + " " + report));
        }

        assertThat(lane.awaitReported(Duration.ofSeconds(10))).isTrue();

        assertThat(seen).hasSize(50).allMatch(line -> line.startsWith("localqueue-report-mail "));
        assertThat(seen.stream().map(line -> Integer.parseInt(line.substring(line.indexOf(' ') + 1))).toList())
                .isSorted();
    }

    @Test
    void aReportThatThrowsIsLoggedAndTheNextOnesRun() {
        CountDownLatch after = new CountDownLatch(1);
        lane.report(() -> "the outcome of job 7", () -> {
            throw new IllegalStateException("observer bug");
        });
        lane.report(() -> "the outcome of job 8", after::countDown);

        assertThat(lane.awaitReported(Duration.ofSeconds(10))).isTrue();

        assertThat(after.getCount()).isZero();
        assertThat(messages()).containsExactly("Telling observer X of the outcome of job 7 of worker 'mail' failed");
    }

    @Test
    void theFirstSlowReportIsLoggedOnceWithItsTime() {
        lane.report(() -> "the outcome of job 1", () -> nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(999)));
        lane.report(() -> "dead letter 2", () -> nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(8_012)));
        lane.report(() -> "dead letter 3", () -> nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(9_000)));

        assertThat(lane.awaitReported(Duration.ofSeconds(10))).isTrue();

        assertThat(messages()).singleElement().asString().startsWith("Telling observer X of dead letter 2 of worker "
                + "'mail' took 8012 ms; the reports of worker 'mail' run one at a time on thread "
                + "localqueue-report-mail, so the ones after it waited.");
    }

    @Test
    void waitingForReportsEndsAtItsTimeoutWhileOneStillRuns() {
        CountDownLatch release = new CountDownLatch(1);
        lane.report(() -> "a hanging alert", () -> {
            try {
                release.await();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });

        assertThat(lane.awaitReported(Duration.ofMillis(50))).isFalse();
        release.countDown();
        assertThat(lane.awaitReported(Duration.ofSeconds(10))).isTrue();
    }

    private List<String> messages() {
        return logged.messages();
    }
}
