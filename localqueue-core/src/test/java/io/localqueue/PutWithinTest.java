package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs put through the application's own connection to the queue's database commit and roll back with the
 * application's rows, under the queue's deduplication and pending-job limit, on both stores.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PutWithinTest extends QueueTestBase {

    private SimpleQueue<Object> queue;
    private Connection app;

    @BeforeEach
    void openQueueAndApplicationConnection() throws SQLException {
        queue = open(SimpleQueue.builder(database()).name("emails").maxPendingJobs(3).clock(clock));
        app = closeAfterTest(TestDatabases.connect(dir));
        try (Statement statement = app.createStatement()) {
            statement.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT NOT NULL)");
        }
        app.setAutoCommit(false);
    }

    @Test
    void jobsCommitWithTheApplicationsRowsAndOnlyThenReachConsumers() throws SQLException {
        insertOrder(1);
        long id = queue.putWithin(app, "confirm order 1", "order-1");

        assertThat(queue.stats().ready()).as("uncommitted").isZero();
        app.commit();
        queue.wakeConsumers();

        assertThat(orders()).isEqualTo(1);
        Job<Object> job = queue.getNowait();
        assertThat(job.id()).isEqualTo(id);
        assertThat(job.data()).isEqualTo("confirm order 1");
        assertThat(job.attempts()).isZero();
    }

    @Test
    void aRollbackTakesTheJobsWithTheApplicationsRows() throws SQLException {
        insertOrder(1);
        queue.putManyWithin(app, List.of(EnqueueItem.of("a"), EnqueueItem.of("b", "job-b")));

        app.rollback();

        assertThat(orders()).isZero();
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(queue.put("b again", "job-b")).as("the job id is free again").isPositive();
    }

    @Test
    void aJobIdAlreadyInTheQueueResolvesToTheExistingJob() throws SQLException {
        long existing = queue.put("first", "order-7");

        List<Long> ids = queue.putManyWithin(app,
                List.of(EnqueueItem.of("again", "order-7"), EnqueueItem.of("new", "order-8"),
                        EnqueueItem.of("new twice", "order-8")));
        app.commit();

        assertThat(ids.get(0)).isEqualTo(existing);
        assertThat(ids.get(1)).isEqualTo(ids.get(2)).isNotEqualTo(existing);
        assertThat(queue.stats().ready()).isEqualTo(2);
    }

    @Test
    void aFullQueueRefusesAtOnceInsteadOfWaitingWithTheTransactionOpen() throws SQLException {
        List<Long> full = queue.putMany(List.of(EnqueueItem.of("a", "job-a"), EnqueueItem.of("b"),
                EnqueueItem.of("c")));

        assertThatThrownBy(() -> queue.putWithin(app, "d", null)).isInstanceOf(QueueFullException.class)
                .hasMessageContaining("emails");
        assertThat(queue.putWithin(app, "a again", "job-a")).as("a duplicate takes no room").isEqualTo(full.get(0));
        app.commit();
        assertThat(queue.stats().ready()).isEqualTo(3);
    }

    @Test
    void aBatchThatCanNeverFitIsRefusedNamingItsSize() {
        assertThatThrownBy(() -> queue.putManyWithin(app,
                List.of(EnqueueItem.of(1), EnqueueItem.of(2), EnqueueItem.of(3), EnqueueItem.of(4))))
                .isInstanceOf(QueueFullException.class).hasMessageContaining("adds 4 jobs");
    }

    @Test
    void aConnectionInAutoCommitModeIsRefusedAndWritesNothing() throws SQLException {
        app.setAutoCommit(true);

        assertThatThrownBy(() -> queue.putWithin(app, "a", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto-commit");
        assertThat(queue.stats().ready()).isZero();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void aConnectionToAnotherFileIsRefused() throws SQLException {
        try (Connection other = RawSqlite.connect(dir.resolve("other.db"))) {
            other.setAutoCommit(false);

            assertThatThrownBy(() -> queue.putWithin(other, "a", null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("other.db").hasMessageContaining("not the queue's file");
        }
    }

    @Test
    void aWaitingConsumerClaimsTheJobOnceTheTransactionCommitted() throws Exception {
        CompletableFuture<Job<Object>> claimed = CompletableFuture.supplyAsync(() -> queue.get(Duration.ofSeconds(30)));

        long id = queue.putWithin(app, "wake up", null);
        app.commit();
        queue.wakeConsumers();

        assertThat(claimed.get(20, TimeUnit.SECONDS).id()).isEqualTo(id);
    }

    @Test
    void aClosedQueueRefusesJoinedPutsAndWakeUps() throws Exception {
        queue.close();

        assertThatThrownBy(() -> queue.putWithin(app, "a", null)).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(queue::wakeConsumers).isInstanceOf(QueueClosedException.class);
    }

    /** Counts the committed orders, through a connection of its own. */
    private long orders() throws SQLException {
        try (Connection reader = TestDatabases.connect(dir); Statement statement = reader.createStatement();
             java.sql.ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM orders")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private void insertOrder(int id) throws SQLException {
        try (Statement statement = app.createStatement()) {
            statement.executeUpdate("INSERT INTO orders (id, item) VALUES (" + id + ", 'book')");
        }
    }
}
