package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.localqueue.internal.consumer.ClaimTrouble;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Claims that keep failing back off and are logged once, then once a minute with a count, not 40 times a second. */
class ClaimTroubleTest extends QueueTestBase {

    private final Logger logger = (Logger) LoggerFactory.getLogger("claim-trouble-test");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final AtomicLong now = new AtomicLong();

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
    }

    @Test
    void pausesDoubleUpToTheirMaximum() {
        ClaimTrouble trouble = new ClaimTrouble(logger, "Worker 'w'", "q", now::get);
        List<Long> pauses = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pauses.add(trouble.failed(new LocalQueueException("reading failed: [SQLITE_CORRUPT] boom")));
        }

        assertThat(pauses).containsExactly(200L, 400L, 800L, 1_600L, 3_200L, 6_400L, 10_000L, 10_000L, 10_000L,
                10_000L);
        trouble.succeeded();
        assertThat(trouble.failed(new LocalQueueException("again"))).as("a new run starts over").isEqualTo(200L);
    }

    @Test
    void aRunOfFailuresIsLoggedOnceThenOncePerIntervalWithACountAndTheRecoveryOnce() {
        ClaimTrouble trouble = new ClaimTrouble(logger, "Worker 'w'", "q", now::get);
        for (int second = 0; second < 150; second++) {
            for (int i = 0; i < 40; i++) {
                trouble.failed(new LocalQueueException("reading failed: [SQLITE_CORRUPT] database disk image is "
                        + "malformed"));
            }
            now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        }
        trouble.succeeded();
        trouble.succeeded();

        List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("Worker 'w' failed to claim from queue 'q'; trying again in 200 ms: "
                + "reading failed: [SQLITE_CORRUPT]");
        assertThat(appender.list.get(0).getThrowableProxy()).isNotNull();
        assertThat(lines.get(1)).startsWith("Worker 'w' still fails to claim from queue 'q': 2401 failures in a row, "
                + "2400 since the last report").contains("[SQLITE_CORRUPT] database disk image is malformed");
        assertThat(appender.list.get(1).getThrowableProxy()).isNull();
        assertThat(lines.get(2)).contains("4801 failures in a row");
        assertThat(lines.get(3)).isEqualTo("Worker 'w' claims from queue 'q' again after 6000 failed claim(s)");
        assertThat(appender.list.get(3).getLevel()).isEqualTo(Level.INFO);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void aWorkerOnADamagedFileNamesTheSqliteErrorAndBacksOff() throws Exception {
        Path damaged = DamagedDatabase.create(dir);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(damaged));
        try (WorkerLog log = new WorkerLog()) {
            Worker<Object> worker = Worker.builder(queue, job -> { }).concurrency(2)
                    .pollInterval(Duration.ofMillis(10)).build();
            worker.start();
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> log.contains("trying again in 200 ms"));
                assertThat(log.contains("SQLITE_CORRUPT")).isTrue();
                assertThat(log.contains("statement is not executing")).isFalse();
            } finally {
                assertThat(worker.stop(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(log.count("failed to claim")).as("one line for the run, whatever the pollers' count")
                    .isEqualTo(1);
        }
    }

    @Test
    void aWorkerWhoseTableIsGoneBacksOffLogsOnceAndClaimsAgainOnceItIsBack() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()));
        queue.put("waiting");
        renameMessages("messages", "messages_away");
        CountDownLatch handled = new CountDownLatch(1);
        try (WorkerLog log = new WorkerLog()) {
            Worker<Object> worker = Worker.builder(queue, job -> handled.countDown())
                    .pollInterval(Duration.ofMillis(10)).build();
            worker.start();
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> log.contains("trying again in 200 ms"));
                renameMessages("messages_away", "messages");
                assertThat(handled.await(10, TimeUnit.SECONDS)).isTrue();
            } finally {
                assertThat(worker.stop(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(log.count("failed to claim")).as("one line for the run").isEqualTo(1);
            assertThat(log.contains("claims from queue 'default' again after")).isTrue();
        }
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    private void renameMessages(String from, String to) throws SQLException {
        try (Connection connection = TestDatabases.connect(dir); Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE " + from + " RENAME TO " + to);
        }
    }
}
