package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueTestBase;
import io.localqueue.TestDatabases;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A file this library writes follows the conventions of the Python library's files, column by column. */
@Tag(TestDatabases.FILE_ONLY)
class WrittenFileConventionsTest extends QueueTestBase {

    /** A clock reading with milliseconds, so that a timestamp in seconds or microseconds would show. */
    private static final Instant START = Instant.parse("2030-01-01T00:00:00.123Z");
    private static final long START_MILLIS = 1_893_456_000_123L;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final int MAX_RETRIES = 2;
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private SimpleQueue<Object> queue;
    private Path file;

    WrittenFileConventionsTest() {
        super(START);
    }

    @BeforeEach
    void openQueue() {
        queue = open(SimpleQueue.builder(dir).name("emails").delivery(new DeliveryPolicy(LEASE, MAX_RETRIES))
                .clock(clock));
        file = dir.resolve(LocalQueueDatabase.FILE_NAME);
    }

    @Test
    void messagesHasTheReferenceColumnsTypesAndConstraintsInOrderThenTwoNullableOnesOfItsOwn() throws SQLException {
        assertThat(tableInfo(file)).containsExactly(
                column(0, "id", "INTEGER", 0, null, 1),
                column(1, "queue", "TEXT", 1, null, 0),
                column(2, "payload", "BLOB", 1, null, 0),
                column(3, "status", "INTEGER", 1, null, 0),
                column(4, "attempts", "INTEGER", 1, "0", 0),
                column(5, "max_attempts", "INTEGER", 1, null, 0),
                column(6, "available_at", "INTEGER", 1, null, 0),
                column(7, "lease_until", "INTEGER", 0, null, 0),
                column(8, "receipt", "TEXT", 0, null, 0),
                column(9, "last_error", "TEXT", 0, null, 0),
                column(10, "failure_reason", "TEXT", 0, null, 0),
                column(11, "failure_category", "TEXT", 0, null, 0),
                column(12, "job_id", "TEXT", 0, null, 0),
                column(13, "dedup_key", "TEXT", 0, null, 0),
                column(14, "dedup_fingerprint", "TEXT", 0, null, 0),
                column(15, "created_at", "INTEGER", 1, null, 0),
                column(16, "updated_at", "INTEGER", 1, null, 0),
                column(17, "priority", "INTEGER", 0, null, 0),
                column(18, "concurrency_key", "TEXT", 0, null, 0));
    }

    @Test
    void messagesIsDeclaredAsInAFileThePythonLibraryCreatedThenTheAddedColumns() throws SQLException, IOException {
        Path python = Files.createDirectories(dir.resolve("python")).resolve(LocalQueueDatabase.FILE_NAME);
        PythonLayout.V1_4.create(python).close();

        List<Map<String, Object>> reference = tableInfo(python);
        assertThat(tableInfo(file).subList(0, reference.size())).isEqualTo(reference);
        assertThat(tableInfo(file).subList(reference.size(), tableInfo(file).size()))
                .extracting(column -> column.get("name")).containsExactlyElementsOf(RawSqlite.ADDED_MESSAGE_COLUMNS);
        for (String index : List.of("idx_messages_job_id", "idx_messages_dedup_key", "idx_messages_queue_status")) {
            assertThat(indexColumns(file, index)).as(index).isEqualTo(indexColumns(python, index));
            assertThat(whereClause(file, index)).as(index).isEqualTo(whereClause(python, index));
        }
        assertThat(indexList(file)).containsAll(indexList(python));
    }

    @Test
    void idIsAnAutoincrementKeySoIdsAreNeverReused() throws SQLException {
        long first = queue.put("first");
        queue.ack(queue.getNowait());
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.purge(Duration.ZERO)).isEqualTo(1);

        long second = queue.put("second");

        assertThat(second).isEqualTo(first + 1);
        assertThat(normalized(RawSqlite.schema(file).get("table messages")))
                .containsPattern("(?i)\\bid INTEGER PRIMARY KEY AUTOINCREMENT\\b");
        assertThat(RawSqlite.query(file, "SELECT name, seq FROM sqlite_sequence"))
                .containsExactly(Map.of("name", "messages", "seq", second));
    }

    @Test
    void messagesHasTheThreeReferenceIndexesAndThePartialIndexesOfItsOwn() throws SQLException {
        assertThat(indexList(file)).containsExactlyInAnyOrder(
                index("idx_messages_job_id", 1, 1),
                index("idx_messages_dedup_key", 1, 1),
                index("idx_messages_queue_status", 0, 0),
                index("idx_messages_priority", 0, 1),
                index("idx_messages_held", 0, 1),
                index("idx_messages_leased_keys", 0, 1));
        assertThat(indexColumns(file, "idx_messages_priority")).containsExactly("queue", "priority", "available_at");
        assertThat(whereClause(file, "idx_messages_priority"))
                .isEqualTo("WHERE status = 0 AND priority IS NOT NULL");
        assertThat(indexColumns(file, "idx_messages_held"))
                .containsExactly("queue", "concurrency_key", "priority", "available_at");
        assertThat(whereClause(file, "idx_messages_held")).isEqualTo("WHERE status = 0 AND priority > 1000");
        assertThat(indexColumns(file, "idx_messages_leased_keys")).containsExactly("queue", "concurrency_key");
        assertThat(whereClause(file, "idx_messages_leased_keys"))
                .isEqualTo("WHERE status = 1 AND concurrency_key IS NOT NULL");
        assertThat(indexColumns(file, "idx_messages_job_id")).containsExactly("queue", "job_id");
        assertThat(indexColumns(file, "idx_messages_dedup_key")).containsExactly("queue", "dedup_key");
        assertThat(indexColumns(file, "idx_messages_queue_status"))
                .containsExactly("queue", "status", "available_at", "lease_until");
        assertThat(whereClause(file, "idx_messages_job_id")).isEqualTo("WHERE job_id IS NOT NULL");
        assertThat(whereClause(file, "idx_messages_dedup_key")).isEqualTo("WHERE dedup_key IS NOT NULL");
    }

    @Test
    void fileIsInWalModeWithUserVersionZero() throws SQLException {
        assertThat(RawSqlite.pragma(file, "journal_mode")).isEqualTo("wal");
        assertThat(RawSqlite.pragma(file, "user_version")).isEqualTo(0L);
        assertThat(RawSqlite.query(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
                .extracting(row -> row.get("name"))
                .containsExactly("localqueue_turns", "message_headers", "messages", "queue_claims",
                        "queue_controls", "queue_priorities", "recurring_jobs", "recurring_ticks", "sqlite_sequence");
    }

    @Test
    void putWritesAReadyRowStampedWithTheQueueClock() throws SQLException {
        long id = queue.put("hello", "job-1");

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("id", id);
        expected.put("queue", "emails");
        expected.put("payload", hex("\"hello\""));
        expected.put("status", 0L);
        expected.put("attempts", 0L);
        expected.put("max_attempts", (long) MAX_RETRIES + 1);
        expected.put("available_at", START_MILLIS);
        expected.put("lease_until", null);
        expected.put("receipt", null);
        expected.put("last_error", null);
        expected.put("failure_reason", null);
        expected.put("failure_category", null);
        expected.put("job_id", "job-1");
        expected.put("dedup_key", null);
        expected.put("dedup_fingerprint", null);
        expected.put("created_at", START_MILLIS);
        expected.put("updated_at", START_MILLIS);
        assertThat(row(id)).isEqualTo(expected);
    }

    @Test
    void getLeasesTheRowWithAReceiptUntilNowPlusTheLease() throws SQLException {
        long id = queue.put("hello");
        Map<String, Object> expected = row(id);
        long now = clock.advance(Duration.ofMillis(1_500)).toEpochMilli();

        Job<Object> job = queue.getNowait();

        expected.putAll(Map.of("status", 1L, "attempts", 1L, "receipt", job.receipt(),
                "lease_until", now + LEASE.toMillis(), "updated_at", now));
        assertThat(row(id)).isEqualTo(expected);
        assertThat(job.receipt()).isNotBlank();
    }

    @Test
    void ackMarksTheRowDoneAndClearsReceiptAndLease() throws SQLException {
        Claimed claimed = claimThenWait(Duration.ofSeconds(2));

        queue.ack(claimed.job());

        Map<String, Object> expected = withoutLease(claimed.row());
        expected.putAll(Map.of("status", 2L, "updated_at", claimed.now()));
        assertThat(row(claimed.id())).isEqualTo(expected);
    }

    @Test
    void nackWithDelayMakesTheRowReadyAtNowPlusTheDelay() throws SQLException {
        Claimed claimed = claimThenWait(Duration.ofSeconds(2));

        queue.nack(claimed.job(), Duration.ofMillis(5_250), "TimeoutError: slow");

        Map<String, Object> expected = withoutLease(claimed.row());
        expected.putAll(Map.of("status", 0L, "available_at", claimed.now() + 5_250, "last_error",
                "TimeoutError: slow", "updated_at", claimed.now()));
        assertThat(row(claimed.id())).isEqualTo(expected);
    }

    @Test
    void failStoresExplicitPermanentFailure() throws SQLException {
        Claimed claimed = claimThenWait(Duration.ofSeconds(2));

        queue.fail(claimed.job(), "ValueError: bad address");

        Map<String, Object> expected = withoutLease(claimed.row());
        expected.putAll(Map.of("status", 3L, "failure_reason", "explicit_permanent_failure",
                "last_error", "ValueError: bad address", "updated_at", claimed.now()));
        assertThat(row(claimed.id())).isEqualTo(expected);
    }

    @Test
    void nackOfTheLastAttemptStoresRetriesExhausted() throws SQLException {
        long id = queue.put("hello");
        for (int attempt = 1; attempt <= MAX_RETRIES; attempt++) {
            queue.nack(queue.getNowait(), Duration.ZERO, "OSError: attempt " + attempt);
            assertThat(row(id)).containsEntry("status", 0L).containsEntry("attempts", (long) attempt)
                    .containsEntry("failure_reason", null).containsEntry("receipt", null)
                    .containsEntry("lease_until", null);
        }
        Job<Object> last = queue.getNowait();
        long now = clock.advance(Duration.ofSeconds(1)).toEpochMilli();

        queue.nack(last, Duration.ZERO, "OSError: last");

        assertThat(row(id)).containsEntry("status", 3L).containsEntry("attempts", (long) MAX_RETRIES + 1)
                .containsEntry("failure_reason", "retries_exhausted").containsEntry("last_error", "OSError: last")
                .containsEntry("receipt", null).containsEntry("lease_until", null).containsEntry("updated_at", now);
    }

    @Test
    void expiryOfTheLastLeaseStoresRetriesExhaustedAndALastErrorSayingSo() throws SQLException {
        long id = queue.put("hello");
        for (int attempt = 1; attempt <= MAX_RETRIES + 1; attempt++) {
            assertThat(queue.getNowait().id()).isEqualTo(id);
            assertThat(row(id)).containsEntry("status", 1L).containsEntry("attempts", (long) attempt);
            clock.advance(LEASE);
        }
        long now = clock.millis();

        assertThat(queue.reclaimExpiredLeases()).isEqualTo(1);

        assertThat(row(id)).containsEntry("status", 3L).containsEntry("attempts", (long) MAX_RETRIES + 1)
                .containsEntry("failure_reason", "retries_exhausted")
                // The Python library leaves last_error as it was; both read either.
                .containsEntry("last_error", "lease expired on delivery 3 of 3: the job was not settled before its "
                        + "lease ran out")
                .containsEntry("receipt", null).containsEntry("lease_until", null).containsEntry("updated_at", now);
    }

    @Test
    void extendLeaseMovesTheLeaseEndToNowPlusTheDuration() throws SQLException {
        Claimed claimed = claimThenWait(Duration.ofSeconds(20));

        queue.extendLease(claimed.job(), Duration.ofSeconds(45));

        Map<String, Object> expected = claimed.row();
        expected.putAll(Map.of("lease_until", claimed.now() + 45_000, "updated_at", claimed.now()));
        assertThat(row(claimed.id())).isEqualTo(expected);
    }

    @Test
    void retryFailedResetsTheDeadLetterToAReadyRowWithNoAttempts() throws SQLException {
        long id = queue.put("hello");
        queue.fail(queue.getNowait(), "ValueError: bad address");
        Map<String, Object> expected = row(id);
        long now = clock.advance(Duration.ofSeconds(3)).toEpochMilli();

        queue.retryFailed(id);

        expected.putAll(Map.of("status", 0L, "attempts", 0L, "available_at", now, "updated_at", now));
        expected.put("last_error", null);
        expected.put("failure_reason", null);
        assertThat(row(id)).isEqualTo(expected);
    }

    @Test
    void payloadIsTheUtf8OfPythonJsonDumps() throws SQLException {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("task", "send-email");
        payload.put("to", "café");
        payload.put("tags", Arrays.asList("ünïcode", 7, 2.5, true, null, List.of("nested", "☃")));
        payload.put("emoji", "😀 /path");
        payload.put("meta", Map.of("quote", "say \"hi\"\n"));

        long id = queue.put(payload);

        String python = "{\"task\": \"send-email\", \"to\": \"caf\\u00e9\", "
                + "\"tags\": [\"\\u00fcn\\u00efcode\", 7, 2.5, true, null, [\"nested\", \"\\u2603\"]], "
                + "\"emoji\": \"\\ud83d\\ude00 /path\", \"meta\": {\"quote\": \"say \\\"hi\\\"\\n\"}}";
        assertThat(row(id)).containsEntry("payload", hex(python));
    }

    /** Puts and claims one job, then moves the clock on by {@code wait}. */
    @Test
    void messageHeadersIsKeyedByTheMessageIdAndDeletedWithTheMessage() throws SQLException {
        assertThat(RawSqlite.query(file,
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info('message_headers')")).containsExactly(
                Map.of("name", "message_id", "type", "INTEGER", "notnull", 0L, "pk", 1L),
                Map.of("name", "headers", "type", "TEXT", "notnull", 1L, "pk", 0L));
        assertThat(RawSqlite.query(file,
                "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('message_headers')"))
                .containsExactly(Map.of("table", "messages", "from", "message_id", "to", "id", "on_delete", "CASCADE"));
    }

    @Test
    void headersLieBesideTheRowWhichStaysAsWithoutThemAndTheirPayloadBytesExact() throws SQLException {
        long plain = queue.put("hello", "job-1");
        long traced = queue.putMany(List.of(EnqueueItem.<Object>of("hello", "job-2")
                .withHeaders(Map.of("traceparent", TRACEPARENT)))).get(0);

        Map<String, Object> withHeaders = row(traced);
        Map<String, Object> without = row(plain);
        assertThat(withHeaders.remove("id")).isEqualTo(traced);
        assertThat(without.remove("id")).isEqualTo(plain);
        withHeaders.put("job_id", "job-1");
        assertThat(withHeaders).isEqualTo(without);
        assertThat(RawSqlite.query(file, "SELECT message_id, headers FROM message_headers")).containsExactly(
                Map.of("message_id", traced, "headers", "{\"traceparent\":\"" + TRACEPARENT + "\"}"));
    }

    private Claimed claimThenWait(Duration wait) throws SQLException {
        long id = queue.put("hello");
        Job<Object> job = queue.getNowait();
        Map<String, Object> row = row(id);
        long now = clock.advance(wait).toEpochMilli();
        return new Claimed(id, job, row, now);
    }

    private Map<String, Object> row(long id) throws SQLException {
        return new LinkedHashMap<>(RawSqlite.message(file, id));
    }

    /** The row with receipt and lease end cleared, as settling a delivery leaves them. */
    private static Map<String, Object> withoutLease(Map<String, Object> row) {
        row.put("receipt", null);
        row.put("lease_until", null);
        return row;
    }

    /** A claimed job, its row as it stood right after the claim, and the clock's time in milliseconds since. */
    private record Claimed(long id, Job<Object> job, Map<String, Object> row, long now) {
    }

    private static String hex(String text) {
        return "X'" + HexFormat.of().withUpperCase().formatHex(text.getBytes(StandardCharsets.UTF_8)) + "'";
    }

    private static List<Map<String, Object>> tableInfo(Path file) throws SQLException {
        return RawSqlite.query(file,
                "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('messages')");
    }

    private static Map<String, Object> column(long cid, String name, String type, long notNull,
                                              String defaultValue, long primaryKey) {
        Map<String, Object> column = new LinkedHashMap<>();
        column.put("cid", cid);
        column.put("name", name);
        column.put("type", type);
        column.put("notnull", notNull);
        column.put("dflt_value", defaultValue);
        column.put("pk", primaryKey);
        return column;
    }

    private static List<Map<String, Object>> indexList(Path file) throws SQLException {
        return RawSqlite.query(file,
                "SELECT name, \"unique\", origin, partial FROM pragma_index_list('messages')");
    }

    private static Map<String, Object> index(String name, long unique, long partial) {
        return Map.of("name", name, "unique", unique, "origin", "c", "partial", partial);
    }

    private static List<Object> indexColumns(Path file, String index) throws SQLException {
        return RawSqlite.query(file, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", index).stream()
                .map(row -> row.get("name")).toList();
    }

    /** The partial-index clause, from {@code WHERE} on, with whitespace collapsed; empty when there is none. */
    private static String whereClause(Path file, String index) throws SQLException {
        String sql = normalized(RawSqlite.schema(file).get("index " + index));
        int where = sql.toUpperCase().indexOf(" WHERE ");
        return where < 0 ? "" : sql.substring(where + 1);
    }

    private static String normalized(String sql) {
        return sql.replaceAll("\\s+", " ").strip();
    }
}
