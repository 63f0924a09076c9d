package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A server outage shorter than the lease costs no second delivery: the acknowledgements of handlers that finished
 * while the server was down are tried again in the background and recorded once it is back, and the whole outage
 * logs one line when recording fails and one when it works again, not one per job.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SettlementOutageTest {

    private static final int JOBS = 12;

    @TempDir
    Path directory;

    private @Nullable EmbeddedPostgres server;

    @AfterEach
    void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void acknowledgementsMadeDuringAnOutageAreRecordedOnceTheServerIsBackAndNoJobRunsTwice() throws Exception {
        int port = freePort();
        server = start(port);
        String url = server.getJdbcUrl("postgres", "postgres");
        Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Logger settlements = (Logger) LoggerFactory.getLogger("io.localqueue.internal.engine.GroupCommit");
        Logger workers = (Logger) LoggerFactory.getLogger(Worker.class);
        ListAppender<ILoggingEvent> settlementLog = capture(settlements);
        ListAppender<ILoggingEvent> workerLog = capture(workers);
        try (LocalQueueDatabase database = LocalQueueDatabase.server(url).schema(PostgresServer.freshSchema())
                     .poolSize(3).open();
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name("outage")
                     .delivery(new DeliveryPolicy(Duration.ofSeconds(60), 3)).build()) {
            queue.putMany(IntStream.range(0, JOBS).mapToObj(i -> EnqueueItem.of("job-" + i)).toList());
            Worker<String> worker = Worker.builder(queue, job -> {
                runs.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet();
                running.countDown();
                release.await();
            }).concurrency(2).pollInterval(Duration.ofMillis(100)).build();
            worker.start();
            try {
                assertThat(running.await(30, TimeUnit.SECONDS)).as("two handlers hold their jobs").isTrue();
                server.close();
                server = null;
                release.countDown();
                await().atMost(Duration.ofSeconds(30)).until(() -> messages(settlementLog).stream()
                        .anyMatch(line -> line.contains("failed; trying again until each one's lease ends")));

                server = start(port);
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> queue.stats().equals(new QueueStats(0, 0, JOBS, 0)));
            } finally {
                worker.stop();
            }
        } finally {
            settlements.detachAppender(settlementLog);
            workers.detachAppender(workerLog);
        }
        assertThat(runs).as("every job ran").hasSize(JOBS);
        assertThat(runs.values()).as("no job ran twice").allMatch(count -> count.get() == 1);
        assertThat(messages(settlementLog)).filteredOn(line -> line.contains("failed; trying again")).hasSize(1);
        assertThat(messages(settlementLog)).filteredOn(line -> line.contains("works again after")).hasSize(1);
        assertThat(workerLog.list).as("the worker logged no error for the jobs whose acknowledgement waited")
                .noneMatch(event -> event.getLevel() == Level.ERROR);
    }

    private static ListAppender<ILoggingEvent> capture(Logger logger) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        return appender;
    }

    private static List<String> messages(ListAppender<ILoggingEvent> appender) {
        synchronized (appender.list) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    private EmbeddedPostgres start(int port) throws IOException {
        return EmbeddedPostgres.builder().setDataDirectory(directory.resolve("data")).setCleanDataDirectory(false)
                .setPort(port).start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
