package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Named.named;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BadInputTest extends QueueTestBase {

    private static final Duration TOO_LONG = Duration.ofSeconds(Long.MAX_VALUE);
    /** One millisecond beyond the largest delay or lease the reference accepts (9,007,199,254,740 s). */
    private static final Duration BEYOND_MAXIMUM = Duration.ofSeconds(9_007_199_254_740L).plusMillis(1);

    // ---- the refused parameter, as data ---------------------------------------------------------------------------

    @Test
    void aRefusedArgumentNamesItsParameterAsDataNotOnlyInItsMessage() {
        SimpleQueue<Object> queue = queue();

        assertThat(refusal(() -> RetryPolicy.exponential(3, Duration.ofSeconds(1), 0.5, Duration.ofSeconds(10), true)))
                .isEqualTo("multiplier");
        assertThat(refusal(() -> RetryPolicy.exponential(3, Duration.ofSeconds(10), 2.0, Duration.ofSeconds(1), true)))
                .isEqualTo("maxDelay");
        assertThat(refusal(() -> RetryPolicy.fixed(0, Duration.ZERO))).isEqualTo("maxAttempts");
        assertThat(refusal(() -> queue.get(Duration.ofMillis(-1)))).isEqualTo("timeout");
        assertThat(refusal(() -> queue.put(null))).isEqualTo("data");
        assertThat(refusal(() -> DeliveryPolicy.defaults().withLease(Duration.ZERO))).isEqualTo("lease");
        assertThat(refusal(() -> io.localqueue.bus.EventBus.builder(database()).concurrency(0))).isEqualTo("concurrency");
    }

    /** The parameter an {@link InvalidArgumentException} names, failing when the call throws anything else. */
    private static String refusal(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(thrown).isInstanceOf(InvalidArgumentException.class);
        return ((InvalidArgumentException) thrown).parameter();
    }

    // ---- payloads -----------------------------------------------------------------------------------------------

    @Test
    void nullPayloadIsRefusedAndNothingIsWritten() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.put(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("data must not be null");
        assertThatThrownBy(() -> queue.put(null, "job-1", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void nullPayloadInABatchIsRefusedAndNothingIsWritten() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.putMany(List.of(EnqueueItem.of("a"), EnqueueItem.of(null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("items[1].data");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void nullBatchOrNullItemIsRefused() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.putMany(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("items");
        assertThatThrownBy(() -> queue.putMany(Arrays.asList(EnqueueItem.of("a"), null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("items[1]");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void payloadJsonCannotWriteIsRefusedAndNothingIsWritten() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.put(new Unwritable()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void payloadTheSerializerRejectsIsRefusedAndNothingIsWritten() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(),
                new RefusingSerializer("poison")));

        assertThatThrownBy(() -> queue.put("poison", "job-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("data")
                .hasRootCauseInstanceOf(IllegalStateException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(queue.put("fine", "job-1")).isPositive();
    }

    @Test
    void serializerReturningNullIsRefused() {
        Serializer<String> nulls = new Serializer<>() {
            @Override
            public byte[] serialize(String value) {
                return null;
            }

            @Override
            public String deserialize(byte[] bytes) {
                return "";
            }
        };
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), nulls));

        assertThatThrownBy(() -> queue.put("a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("data");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    // ---- durations ----------------------------------------------------------------------------------------------

    @Test
    void nullTimeoutIsRefused() {
        SimpleQueue<Object> queue = queue();

        assertTimeoutRefusedByPutPutManyAndGet(queue, null);
    }

    @Test
    void negativeTimeoutIsRefused() {
        SimpleQueue<Object> queue = queue();
        Duration negative = Duration.ofMillis(-1);

        assertTimeoutRefusedByPutPutManyAndGet(queue, negative);
    }

    @Test
    void timeoutTooLongToCountIsAnUnboundedWait() {
        SimpleQueue<Object> queue = queue();

        long id = queue.put("a", null, TOO_LONG);

        assertThat(queue.get(TOO_LONG).id()).isEqualTo(id);
    }

    @Test
    void negativeNullOrOverflowingNackDelayIsRefusedAndTheLeaseIsKept() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();

        for (Duration delay : Arrays.asList(Duration.ofMillis(-1), null, TOO_LONG, BEYOND_MAXIMUM)) {
            assertThatThrownBy(() -> queue.nack(job, delay, "e"))
                    .as("delay %s", delay)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay");
        }

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        queue.ack(job);
    }

    @Test
    void largestReferenceDelayIsAccepted() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");

        queue.nack(queue.getNowait(), Duration.ofSeconds(9_007_199_254_740L), null);

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
    }

    @Test
    void zeroNegativeNullOrOverflowingLeaseExtensionIsRefusedAndTheLeaseIsKept() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        Instant expiry = job.leaseExpiresAt();

        for (Duration duration : Arrays.asList(Duration.ZERO, Duration.ofSeconds(-5), null, TOO_LONG,
                BEYOND_MAXIMUM)) {
            assertThatThrownBy(() -> queue.extendLease(job, duration))
                    .as("duration %s", duration)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duration");
            assertThatThrownBy(() -> job.extendLease(duration))
                    .as("duration %s", duration)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duration");
        }

        assertThat(job.leaseExpiresAt()).isEqualTo(expiry);
        queue.ack(job);
    }

    @Test
    void negativeNullOrOverflowingPurgeAgeIsRefused() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        queue.ack(queue.getNowait());
        clock.advance(Duration.ofDays(1));

        for (Duration age : Arrays.asList(Duration.ofMillis(-1), null, TOO_LONG)) {
            assertThatThrownBy(() -> queue.purge(age, true))
                    .as("olderThan %s", age)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("olderThan");
            assertThatThrownBy(() -> queue.purge(age))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("olderThan");
        }

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    // ---- builder and call arguments -----------------------------------------------------------------------------

    @Test
    void blankQueueNameIsRefused() {
        SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database());

        for (String name : Arrays.asList("", "   ", null)) {
            assertThatThrownBy(() -> builder.name(name))
                    .as("name '%s'", name)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        }
    }

    @Test
    void nullBuilderArgumentsAreRefusedByName() {
        SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database());

        assertThatThrownBy(() -> SimpleQueue.builder((Path) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("directory");
        assertThatThrownBy(() -> SimpleQueue.builder(dir, (Class<Object>) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("type");
        assertThatThrownBy(() -> SimpleQueue.builder(dir, (Serializer<Object>) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("serializer");
        assertThatThrownBy(() -> builder.delivery(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delivery");
        assertThatThrownBy(() -> builder.durability(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("durability");
        assertThatThrownBy(() -> builder.clock(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clock");
    }

    @Test
    void pagesAndLimitsOutOfRangeAreRefusedByNameAndHugeOnesAreFine() {
        SimpleQueue<Object> queue = queue();
        queue.put("dead");
        queue.fail(queue.getNowait());

        assertThatThrownBy(() -> queue.listFailed(-1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must not be negative, got -1");
        assertThatThrownBy(() -> queue.listFailed(10, -5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("offset must not be negative, got -5");
        assertThat(queue.listFailed(Integer.MAX_VALUE, 0)).hasSize(1);
        assertThat(queue.listFailed(0, 0)).isEmpty();
        assertThat(queue.listFailed(10, Integer.MAX_VALUE)).isEmpty();
        assertThatThrownBy(() -> Worker.builder(queue, job -> { }).concurrency(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency");
        assertThatThrownBy(() -> Worker.builder(queue, job -> { }).concurrency(-3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency");
        assertThatThrownBy(() -> queue.retryFailed(Long.MAX_VALUE)).isInstanceOf(JobNotFoundException.class)
                .hasMessageContaining(String.valueOf(Long.MAX_VALUE));
        assertThatThrownBy(() -> queue.retryFailed(-1)).isInstanceOf(JobNotFoundException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    void nullJobIsRefused() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.ack(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job");
        assertThatThrownBy(() -> queue.nack(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job");
        assertThatThrownBy(() -> queue.fail(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job");
        assertThatThrownBy(() -> queue.extendLease(null, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job");
    }

    // ---- directories and files ----------------------------------------------------------------------------------

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void directoryUnderARegularFileIsRefused() throws IOException {
        Path file = Files.writeString(dir.resolve("plain.txt"), "just a file");

        assertThatThrownBy(() -> SimpleQueue.builder(file.resolve("queue")).build())
                .isInstanceOf(LocalQueueException.class);
        assertThat(Files.readString(file)).isEqualTo("just a file");
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void regularFileGivenAsTheDirectoryIsRefused() throws IOException {
        Path file = Files.writeString(dir.resolve("plain.txt"), "just a file");

        assertThatThrownBy(() -> SimpleQueue.builder(file).build()).isInstanceOf(LocalQueueException.class);
        assertThatThrownBy(() -> LocalQueueDatabase.open(file)).isInstanceOf(LocalQueueException.class);
        assertThat(Files.readString(file)).isEqualTo("just a file");
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void readOnlyDirectoryIsRefused() throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")), "root can write to read-only directories");
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assertThatThrownBy(() -> SimpleQueue.builder(readOnly).build()).isInstanceOf(LocalQueueException.class);
            assertThatThrownBy(() -> SimpleQueue.builder(readOnly.resolve("child")).build())
                    .isInstanceOf(LocalQueueException.class);
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void randomBytesAreRefusedAndLeftUntouched() throws IOException {
        byte[] noise = new byte[8192];
        new Random(42).nextBytes(noise);
        Files.write(dbFile(), noise);

        assertRefusedAndUntouched();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void textFileIsRefusedAndLeftUntouched() throws IOException {
        Files.writeString(dbFile(), "name,email\nada,ada@example.com\n".repeat(50));

        assertRefusedAndUntouched();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void sqliteDatabaseOfAnotherApplicationIsRefusedAndLeftUntouched() throws Exception {
        sql("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
                "INSERT INTO users (name) VALUES ('ada'), ('grace')");

        assertRefusedAndUntouched();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void messagesTableWithoutTheRequiredColumnsIsRefusedAndLeftUntouched() throws Exception {
        sql("CREATE TABLE messages (id INTEGER PRIMARY KEY, queue TEXT, payload BLOB, status INTEGER)",
                "INSERT INTO messages (queue, payload, status) VALUES ('default', x'7b7d', 0)");

        assertRefusedAndUntouched();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void refusedFileStaysRefusedOnTheNextOpen() throws Exception {
        sql("CREATE TABLE users (id INTEGER PRIMARY KEY)");

        assertRefusedAndUntouched();
        assertRefusedAndUntouched();
    }

    // ---- closing ------------------------------------------------------------------------------------------------

    /** A call made after close, given the closed queue and a job it had claimed. */
    interface CallAfterClose {
        void call(SimpleQueue<Object> queue, Job<Object> job);
    }

    static Stream<Named<CallAfterClose>> callsAfterClose() {
        Duration second = Duration.ofSeconds(1);
        return Stream.of(
                named("put(data)", (q, j) -> q.put("x")),
                named("put(data, jobId)", (q, j) -> q.put("x", "job-x")),
                named("put(data, jobId, timeout)", (q, j) -> q.put("x", null, Duration.ZERO)),
                named("putMany(items)", (q, j) -> q.putMany(List.of(EnqueueItem.of("x")))),
                named("putMany(items, timeout)", (q, j) -> q.putMany(List.of(EnqueueItem.of("x")), second)),
                named("putMany(empty)", (q, j) -> q.putMany(List.of())),
                named("get()", (q, j) -> q.get()),
                named("get(timeout)", (q, j) -> q.get(second)),
                named("getNowait()", (q, j) -> q.getNowait()),
                named("ack", (q, j) -> q.ack(j)),
                named("nack", (q, j) -> q.nack(j)),
                named("nack(delay, lastError)", (q, j) -> q.nack(j, second, "e")),
                named("fail", (q, j) -> q.fail(j)),
                named("fail(lastError)", (q, j) -> q.fail(j, "e")),
                named("extendLease", (q, j) -> q.extendLease(j, second)),
                named("job.extendLease", (q, j) -> j.extendLease(second)),
                named("reclaimExpiredLeases", (q, j) -> q.reclaimExpiredLeases()),
                named("stats", (q, j) -> q.stats()),
                named("listFailed()", (q, j) -> q.listFailed()),
                named("listFailed(limit, offset)", (q, j) -> q.listFailed(10, 0)),
                named("retryFailed", (q, j) -> q.retryFailed(1)),
                named("purge(olderThan)", (q, j) -> q.purge(Duration.ZERO)),
                named("purge(olderThan, includeFailed)", (q, j) -> q.purge(Duration.ZERO, true)),
                named("vacuum", (q, j) -> q.vacuum()));
    }

    @ParameterizedTest
    @MethodSource("callsAfterClose")
    void everyCallAfterCloseThrowsQueueClosed(CallAfterClose call) {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        queue.put("b");
        Job<Object> job = queue.getNowait();
        queue.close();

        assertThatThrownBy(() -> call.call(queue, job)).isInstanceOf(QueueClosedException.class);
    }

    @ParameterizedTest
    @MethodSource("callsAfterClose")
    void callAfterCloseThrowsQueueClosedWhileAnotherQueueKeepsTheDatabaseOpen(CallAfterClose call) {
        SimpleQueue<Object> other = queue();
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        queue.close();

        assertThatThrownBy(() -> call.call(queue, job)).isInstanceOf(QueueClosedException.class);
        assertThat(other.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
    }

    @Test
    void closeIsIdempotent() {
        SimpleQueue<Object> queue = queue();

        queue.close();
        queue.close();

        assertThatThrownBy(queue::stats).isInstanceOf(QueueClosedException.class);
    }

    @Test
    void closingOneQueueLeavesOtherQueuesOnTheDatabaseWorking() {
        SimpleQueue<Object> first = queue();
        SimpleQueue<Object> second = alone(SimpleQueue.builder(database()).name("second").clock(clock));
        first.put("a");

        first.close();
        first.close();

        second.put("b");
        assertThat(second.getNowait().data()).isEqualTo("b");
        try (SimpleQueue<Object> reopened = SimpleQueue.builder(database()).clock(clock).build()) {
            assertThat(reopened.getNowait().data()).isEqualTo("a");
        }
    }

    @Test
    void closeWakesAThreadBlockedInGetWithQueueClosed() {
        SimpleQueue<Object> queue = queue();
        Threads.Call<Job<Object>> blocked = Threads.start("consumer", queue::get).awaitParked();

        queue.close();

        assertThatThrownBy(() -> blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(QueueClosedException.class);
    }

    @Test
    void closeWakesAThreadBlockedInGetWithTimeoutWithQueueClosed() {
        SimpleQueue<Object> queue = queue();
        Threads.Call<Job<Object>> blocked = Threads.start("consumer",
                () -> queue.get(Duration.ofMinutes(5))).awaitParked();

        queue.close();

        assertThatThrownBy(() -> blocked.result().get(Threads.BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(QueueClosedException.class);
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** A bean whose getter throws, so JSON cannot write it. */
    static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("not today");
        }
    }

    private Path dbFile() {
        return dir.resolve(LocalQueueDatabase.FILE_NAME);
    }

    private void sql(String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dbFile());
             Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** {@code put}, {@code putMany} and {@code get} refuse {@code timeout}, naming it, and nothing is written. */
    private static void assertTimeoutRefusedByPutPutManyAndGet(SimpleQueue<Object> queue,
                                                               @Nullable Duration timeout) {
        assertThatThrownBy(() -> queue.put("a", null, timeout))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> queue.putMany(List.of(EnqueueItem.of("a")), timeout))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> queue.get(timeout))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    private void assertRefusedAndUntouched() throws IOException {
        byte[] before = Files.readAllBytes(dbFile());

        assertThatThrownBy(() -> SimpleQueue.builder(dir).build())
                .isInstanceOf(LocalQueueException.class)
                .hasMessageContaining(LocalQueueDatabase.FILE_NAME);
        assertThatThrownBy(() -> LocalQueueDatabase.open(dir))
                .isInstanceOf(LocalQueueException.class);

        assertThat(Files.readAllBytes(dbFile())).isEqualTo(before);
    }

    private SimpleQueue<Object> queue() {
        return alone(SimpleQueue.builder(database()).clock(clock));
    }

    /**
     * Builds the queue and closes the handle it was built on, so that the queue holds the database open on its own,
     * as one built on a directory does, and closing the last such queue closes the database.
     */
    private SimpleQueue<Object> alone(SimpleQueue.Builder<Object> builder) {
        SimpleQueue<Object> queue = open(builder);
        database().close();
        return queue;
    }
}
