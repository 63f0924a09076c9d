package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Another connection left idle in a repeatable-read transaction over the messages table, holding its snapshot: puts,
 * claims, acks, purge, vacuum and a new host opening the schema go on unblocked, and what it holds back is only the
 * removal of the row versions purged or replaced meanwhile, which vacuum reclaims once it ends.
 */
class IdleInTransactionReaderTest {

    private static final Logger log = LoggerFactory.getLogger(IdleInTransactionReaderTest.class);

    private static final Pattern NOT_YET_REMOVABLE = Pattern.compile("(\\d+) are dead but not yet removable");

    private final String schema = PostgresServer.freshSchema();

    @Test
    void aReaderIdleInTransactionBlocksNothingAndOnlyKeepsVacuumFromRemovingRowsPurgedUnderIt() throws Exception {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name("jobs").build()) {
            queue.putMany(IntStream.range(0, 100).mapToObj(i -> EnqueueItem.of("job-" + i)).toList());
            for (int i = 0; i < 50; i++) {
                queue.ack(queue.get(Duration.ofSeconds(5)));
            }

            try (Connection reader = PostgresServer.connect(); Statement statement = reader.createStatement()) {
                statement.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
                assertThat(count(statement)).isEqualTo(100);
                assertThat(readerActivity(reader)).as("state and snapshot of the reader's backend")
                        .isEqualTo("idle in transaction, holds a snapshot");

                // Every operation runs as usual; each is given 10 s, far more than it needs.
                within(() -> queue.putMany(IntStream.range(0, 20).mapToObj(i -> EnqueueItem.of("more-" + i))
                        .toList()));
                within(() -> {
                    for (int i = 0; i < 30; i++) {
                        Job<String> job = queue.get(Duration.ofSeconds(5));
                        queue.ack(job);
                    }
                    return null;
                });
                assertThat(within(() -> queue.purge(Duration.ZERO))).as("acked rows purged").isEqualTo(80);
                within(() -> {
                    queue.vacuum();
                    return null;
                });
                assertThat(within(() -> {
                    try (LocalQueueDatabase otherHost = LocalQueueDatabase.server(PostgresServer.url())
                            .schema(schema).poolSize(3).open();
                         SimpleQueue<String> otherQueue = SimpleQueue.builder(otherHost, String.class).name("jobs")
                                 .build()) {
                        return otherQueue.stats();
                    }
                })).as("what a host opening the schema meanwhile counts").isEqualTo(new QueueStats(40, 0, 0, 0));

                assertThat(count(statement)).as("the reader's snapshot, unchanged").isEqualTo(100);
                assertThat(deadRows()).as("rows, purged or updated under the reader, that vacuum cannot remove")
                        .isGreaterThanOrEqualTo(80);
                statement.execute("ROLLBACK");
            }

            assertThat(deadRows()).as("dead rows left once the reader ended").isZero();
            assertThat(queue.stats()).isEqualTo(new QueueStats(40, 0, 0, 0));
        }
    }

    /** Runs an operation of the store's and fails unless it returns within 10 s. */
    private static <R> R within(Callable<R> operation) throws Exception {
        CompletableFuture<R> running = CompletableFuture.supplyAsync(() -> {
            try {
                return operation.call();
            } catch (Exception failure) {
                throw new IllegalStateException(failure);
            }
        });
        return running.get(10, TimeUnit.SECONDS);
    }

    private long count(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + schema + ".messages")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static String readerActivity(Connection reader) throws SQLException {
        long pid;
        try (Statement statement = reader.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            pid = rows.getLong(1);
        }
        List<String> activity = Transactions.query("SELECT state || CASE WHEN backend_xmin IS NULL THEN '' ELSE "
                + "', holds a snapshot' END FROM pg_stat_activity WHERE pid = " + pid);
        return activity.get(0);
    }

    /**
     * Vacuums the messages table once more, verbosely, and returns how many dead rows it found but could not remove,
     * in PostgreSQL's own report ("N are dead but not yet removable").
     */
    private long deadRows() throws SQLException {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement()) {
            statement.execute("VACUUM (VERBOSE) " + schema + ".messages");
            for (SQLWarning report = statement.getWarnings(); report != null; report = report.getNextWarning()) {
                Matcher dead = NOT_YET_REMOVABLE.matcher(report.getMessage());
                if (dead.find()) {
                    log.info("VACUUM of {}.messages: {}", schema, dead.group());
                    return Long.parseLong(dead.group(1));
                }
            }
        }
        throw new IllegalStateException("VACUUM (VERBOSE) did not report the dead rows it left");
    }
}
