package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server of the test's own stopped and started again on the same data directory and port under an open handle:
 * while it is down each operation fails within seconds naming the refused connection, and once it is back the same
 * handle works on, with every committed job where it was and a lease taken before the stop still good.
 */
class ServerRestartTest {

    private static final Logger log = LoggerFactory.getLogger(ServerRestartTest.class);

    /** The longest an operation may take to fail while the server is down: the pool's 5 s, and then some. */
    private static final Duration FAILS_WITHIN = Duration.ofSeconds(15);

    @TempDir
    Path directory;

    private final String schema = PostgresServer.freshSchema();
    private @Nullable RestartableServer server;

    @AfterEach
    void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void whileTheServerIsDownOperationsFailNamingItAndOnceItIsBackEveryCommittedJobIsThere() throws IOException {
        RestartableServer server = new RestartableServer(directory.resolve("data")).start();
        this.server = server;
        int port = server.port();
        String url = server.url();
        try (LocalQueueDatabase database = LocalQueueDatabase.server(url).schema(schema).poolSize(3).open();
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name("jobs")
                     .durability(DurabilityMode.DURABLE).build()) {
            List<Long> ids = new ArrayList<>(queue.putMany(IntStream.range(0, 20)
                    .mapToObj(i -> EnqueueItem.of("job-" + i)).toList()));
            for (int i = 0; i < 5; i++) {
                queue.ack(queue.get(Duration.ofSeconds(5)));
            }
            Job<String> held = queue.get(Duration.ofSeconds(5));
            assertThat(queue.stats()).isEqualTo(new QueueStats(14, 1, 5, 0));

            server.stop();

            String unreachable = "failed: the database server cannot be reached (SQLSTATE 08001): Connection to "
                    + "localhost:" + port + " refused";
            failsWithin("put", () -> queue.put("while down", null, Duration.ZERO), "'enqueue' in schema " + schema
                    + " " + unreachable);
            failsWithin("get(1 s)", () -> queue.get(Duration.ofSeconds(1)), unreachable);
            failsWithin("ack", () -> queue.ack(held), unreachable);
            failsWithin("checkIntegrity", () -> database.checkIntegrity(IntegrityCheckMode.QUICK, 10), unreachable);

            server.start();
            // The pool reconnects on its own; its attempts back off while the server is down, up to 5 s apart.
            long restarted = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> assertThat(queue.stats())
                    .as("every committed job, and nothing of the failed put").isEqualTo(new QueueStats(14, 1, 5, 0)));
            log.info("the first read after the restart succeeded {} ms after the server was up",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted));
            assertThat(database.checkIntegrity(IntegrityCheckMode.QUICK, 10).ok()).as("a check that ran").isTrue();
            queue.ack(held);
            ids.add(queue.put("after the restart"));
            List<Long> drained = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                Job<String> job = queue.get(Duration.ofSeconds(5));
                drained.add(job.id());
                queue.ack(job);
            }
            assertThat(drained).containsExactlyElementsOf(ids.subList(6, ids.size()));
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 21, 0));
        }
    }

    /** Runs an operation against the stopped server: it fails, quickly, with a message that names the cause. */
    private static void failsWithin(String what, ThrowingCallable operation, String message) {
        long started = System.nanoTime();
        Throwable failure = catchThrowable(operation);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        log.info("{} failed after {} ms while the server was down: {}", what, millis, String.valueOf(failure));
        assertThat(failure).as(what).isInstanceOf(LocalQueueException.class).hasMessageContaining(message);
        assertThat(Duration.ofMillis(millis)).as("how long %s took to fail", what).isLessThan(FAILS_WITHIN);
    }
}
