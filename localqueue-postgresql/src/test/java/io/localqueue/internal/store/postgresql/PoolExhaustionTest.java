package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An application's own HikariCP pool of three whose every connection the application holds: a put, get or stats
 * fails within the pool's connection timeout with a message naming the exhausted pool, writes nothing, and the queue
 * works again, a waiting put first, as soon as a connection is returned.
 */
class PoolExhaustionTest {

    private static final Logger log = LoggerFactory.getLogger(PoolExhaustionTest.class);

    private final String schema = PostgresServer.freshSchema();

    @Test
    void withEveryConnectionHeldOperationsFailWithinThePoolsTimeoutAndWorkAgainOnceOneIsReturned() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(PostgresServer.url());
        config.setMaximumPoolSize(3);
        config.setConnectionTimeout(1_000);
        config.setPoolName("app-pool");
        try (HikariDataSource pool = new HikariDataSource(config);
             LocalQueueDatabase database = LocalQueueDatabase.open(pool, schema);
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name("jobs").build()) {
            long first = queue.put("first");
            List<Connection> held = new ArrayList<>();
            while (held.size() < config.getMaximumPoolSize()) {
                held.add(pool.getConnection());
            }

            String exhausted = "failed: no connection of the data source became free before its timeout; each one "
                    + "was in use: app-pool - Connection is not available, request timed out after";
            failsWithin("put", () -> queue.put("refused"), "'enqueue' in schema " + schema + " " + exhausted);
            failsWithin("put without waiting for room", () -> queue.put("refused", null, Duration.ZERO),
                    "'enqueue' in schema " + schema + " " + exhausted);
            failsWithin("get(1 s)", () -> queue.get(Duration.ofSeconds(1)), "reading schema " + schema + " "
                    + exhausted);
            failsWithin("stats", queue::stats, "(total=3, active=3, idle=0");

            CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> queue.put("second"));
            await().atMost(Duration.ofSeconds(10)).until(
                    () -> pool.getHikariPoolMXBean().getThreadsAwaitingConnection() == 1);
            held.remove(0).close();
            long second = waiting.get(10, TimeUnit.SECONDS);
            for (Connection connection : held) {
                connection.close();
            }

            assertThat(queue.stats()).as("the two puts that got a connection, and nothing else")
                    .isEqualTo(new QueueStats(2, 0, 0, 0));
            Job<String> job = queue.get(Duration.ofSeconds(5));
            assertThat(job.id()).isEqualTo(first);
            queue.ack(job);
            job = queue.get(Duration.ofSeconds(5));
            assertThat(job.id()).isEqualTo(second);
            queue.ack(job);
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 2, 0));
            assertThat(database.checkIntegrity(IntegrityCheckMode.QUICK, 10).ok()).isTrue();
        } catch (SQLException failure) {
            throw new AssertionError(failure);
        }
    }

    /** Runs an operation on the exhausted pool: it fails within the pool's 1 s and then some, naming the cause. */
    private static void failsWithin(String what, ThrowingCallable operation, String message) {
        long started = System.nanoTime();
        Throwable failure = catchThrowable(operation);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        log.info("{} failed after {} ms with every connection of the pool held: {}", what, millis, String.valueOf(failure));
        assertThat(failure).as(what).isInstanceOf(LocalQueueException.class).hasMessageContaining(message);
        assertThat(Duration.ofMillis(millis)).as("how long %s took to fail", what).isLessThan(Duration.ofSeconds(10));
    }
}
