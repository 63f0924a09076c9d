package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.WorkerLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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

    private @Nullable RestartableServer server;

    @AfterEach
    void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void acknowledgementsMadeDuringAnOutageAreRecordedOnceTheServerIsBackAndNoJobRunsTwice() throws Exception {
        RestartableServer server = new RestartableServer(directory.resolve("data")).start();
        this.server = server;
        String url = server.url();
        Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try (WorkerLog settlementLog = new WorkerLog("io.localqueue.internal.engine.GroupCommit");
             WorkerLog workerLog = new WorkerLog(Worker.class);
             LocalQueueDatabase database = LocalQueueDatabase.server(url).schema(PostgresServer.freshSchema())
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
                server.stop();
                release.countDown();
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> settlementLog.contains("failed; trying again until each one's lease ends"));

                server.start();
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> queue.stats().equals(new QueueStats(0, 0, JOBS, 0)));
            } finally {
                worker.stop();
            }
            assertThat(settlementLog.count("failed; trying again")).isEqualTo(1);
            assertThat(settlementLog.count("works again after")).isEqualTo(1);
            assertThat(workerLog.events()).as("the worker logged no error for the jobs whose acknowledgement waited")
                    .noneMatch(event -> event.getLevel() == Level.ERROR);
        }
        assertThat(runs).as("every job ran").hasSize(JOBS);
        assertThat(runs.values()).as("no job ran twice").allMatch(count -> count.get() == 1);
    }
}
