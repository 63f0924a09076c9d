package io.localqueue.storage;

import static io.localqueue.storage.LegacyDatabase.ACKED;
import static io.localqueue.storage.LegacyDatabase.COLUMNS;
import static io.localqueue.storage.LegacyDatabase.EXHAUSTED;
import static io.localqueue.storage.LegacyDatabase.EXPIRED_LEASE;
import static io.localqueue.storage.LegacyDatabase.FAILED;
import static io.localqueue.storage.LegacyDatabase.JOB_ID;
import static io.localqueue.storage.LegacyDatabase.QUEUE;
import static io.localqueue.storage.LegacyDatabase.READY;
import static io.localqueue.storage.LegacyDatabase.REPORTS;
import static io.localqueue.storage.LegacyDatabase.REPORTS_READY;
import static io.localqueue.storage.LegacyDatabase.WITH_JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.localqueue.FailedMessage;
import io.localqueue.FailureReason;
import io.localqueue.Job;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.TestClock;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file in the layout of the Python library 1.0 is brought up to date on open, additively. */
class LegacySchemaMigrationTest {

    private static final List<String> ADDED_COLUMNS = List.of("failure_reason", "failure_category", "dedup_key",
            "dedup_fingerprint");

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.ofEpochMilli(LegacyDatabase.NOW));
    private LegacyDatabase legacy;
    private Map<String, List<Map<String, Object>>> before;

    @BeforeEach
    void writeTheOldFile() throws SQLException {
        legacy = LegacyDatabase.create(dir);
        before = RawSqlite.tables(legacy.file());
    }

    @Test
    void openAppendsTheMissingColumnsAsNullableText() throws SQLException {
        List<Map<String, Object>> columnsBefore = tableInfo();

        open().close();

        List<Map<String, Object>> columns = tableInfo();
        assertThat(columns).extracting(column -> column.get("name"))
                .containsExactlyElementsOf(concat(concat(COLUMNS, ADDED_COLUMNS), RawSqlite.ADDED_MESSAGE_COLUMNS));
        assertThat(columns.subList(0, COLUMNS.size())).isEqualTo(columnsBefore);
        for (Map<String, Object> column : columns.subList(COLUMNS.size(), columns.size())) {
            assertThat(column).as("added column").containsEntry("notnull", 0L)
                    .containsEntry("dflt_value", null).containsEntry("pk", 0L);
            assertThat(column.get("type")).isEqualTo(column.get("name").equals("priority") ? "INTEGER" : "TEXT");
        }
    }

    @Test
    void openAddsTheMissingIndexesAndKeepsTheOldOnes() throws SQLException {
        Map<String, String> schemaBefore = RawSqlite.schema(legacy.file());

        open().close();

        Map<String, String> schema = RawSqlite.schema(legacy.file());
        Map<String, String> kept = new LinkedHashMap<>(schemaBefore);
        kept.remove("table messages");
        assertThat(schema).as("the old indexes, as they were").containsAllEntriesOf(kept);
        Map<String, String> added = new LinkedHashMap<>(schema);
        added.keySet().removeAll(schemaBefore.keySet());
        assertThat(added).containsOnlyKeys(concat(List.of("index idx_messages_dedup_key"),
                RawSqlite.ADDED_SCHEMA_OBJECTS));
        assertThat(RawSqlite.query(legacy.file(),
                "SELECT \"unique\", partial FROM pragma_index_list('messages') WHERE name = 'idx_messages_dedup_key'"))
                .containsExactly(Map.of("unique", 1L, "partial", 1L));
        assertThat(RawSqlite.query(legacy.file(),
                "SELECT name FROM pragma_index_info('idx_messages_dedup_key') ORDER BY seqno"))
                .extracting(row -> row.get("name")).containsExactly("queue", "dedup_key");
        assertThat(normalized(added.get("index idx_messages_dedup_key"))).endsWith("WHERE dedup_key IS NOT NULL");
    }

    @Test
    void openLeavesEveryOldRowUnchanged() throws SQLException {
        open().close();

        Map<String, List<Map<String, Object>>> after = RawSqlite.tablesWithoutAdditions(legacy.file());
        assertThat(after.keySet()).isEqualTo(before.keySet());
        assertThat(after.get("sqlite_sequence")).isEqualTo(before.get("sqlite_sequence"));
        assertThat(after.get("messages")).hasSameSizeAs(before.get("messages"));
        for (int i = 0; i < before.get("messages").size(); i++) {
            Map<String, Object> row = new LinkedHashMap<>(after.get("messages").get(i));
            for (String added : ADDED_COLUMNS) {
                assertThat(row).as("row %s", row.get("id")).containsEntry(added, null);
                row.remove(added);
            }
            assertThat(row).isEqualTo(before.get("messages").get(i));
        }
    }

    @Test
    void oldDeadLettersReadBackAsLegacyUnknown() {
        try (SimpleQueue<Object> queue = open()) {
            assertThat(queue.listFailed()).extracting(FailedMessage::id, FailedMessage::reason, FailedMessage::data,
                            FailedMessage::attempts, FailedMessage::lastError)
                    .containsExactly(
                            tuple(legacy.id(FAILED), FailureReason.LEGACY_UNKNOWN,
                                    Map.of("n", 5), 1, "ValueError: bad input"),
                            tuple(legacy.id(EXHAUSTED), FailureReason.LEGACY_UNKNOWN,
                                    Map.of("n", 6), 4, "OSError: flaky"));
        }
    }

    @Test
    void migratedFileWorksLikeANewOne() throws SQLException {
        try (SimpleQueue<Object> queue = open(); SimpleQueue<Object> reports = open(REPORTS)) {
            assertThat(queue.stats()).isEqualTo(new QueueStats(3, 1, 1, 2));
            assertThat(queue.put(Map.of("n", 70), JOB_ID)).isEqualTo(legacy.id(WITH_JOB_ID));
            assertThat(reports.put(Map.of("n", 80), JOB_ID)).isEqualTo(legacy.id(REPORTS_READY));
            long added = queue.put(Map.of("n", 9));

            Job<Object> first = queue.getNowait();
            Job<Object> second = queue.getNowait();
            Job<Object> third = queue.getNowait();
            Job<Object> fourth = queue.getNowait();
            assertThat(List.of(first.id(), second.id(), third.id(), fourth.id())).containsExactly(legacy.id(READY),
                    legacy.id(EXPIRED_LEASE), legacy.id(WITH_JOB_ID), added);
            assertThat(first.data()).isEqualTo(Map.of("n", 1, "text", "naïve"));
            assertThat(second.attempts()).isEqualTo(1);
            queue.ack(first);
            queue.fail(second, "gave up");
            queue.nack(third);
            queue.retryFailed(legacy.id(FAILED));

            assertThat(RawSqlite.message(legacy.file(), second.id())).containsEntry("status", 3L)
                    .containsEntry("failure_reason", "explicit_permanent_failure");
            assertThat(RawSqlite.message(legacy.file(), legacy.id(FAILED))).containsEntry("status", 0L)
                    .containsEntry("attempts", 0L).containsEntry("last_error", null);
            assertThat(queue.listFailed()).extracting(FailedMessage::id, FailedMessage::reason).containsExactly(
                    tuple(second.id(), FailureReason.EXPLICIT_PERMANENT_FAILURE),
                    tuple(legacy.id(EXHAUSTED), FailureReason.LEGACY_UNKNOWN));
            assertThat(queue.stats()).isEqualTo(new QueueStats(3, 1, 2, 2));
            assertThat(queue.purge(Duration.ofMinutes(1))).as("the old acked row").isEqualTo(1);
            assertThat(RawSqlite.query(legacy.file(), "SELECT id FROM messages WHERE id = ?", legacy.id(ACKED)))
                    .isEmpty();
            assertThat(queue.checkIntegrity().ok()).isTrue();
        }
    }

    @Test
    void reopeningAMigratedFileChangesNothing() throws SQLException {
        open().close();
        Object schemaVersion = RawSqlite.pragma(legacy.file(), "schema_version");
        Map<String, String> schema = RawSqlite.schema(legacy.file());
        Map<String, List<Map<String, Object>>> rows = RawSqlite.tables(legacy.file());

        open().close();

        assertThat(RawSqlite.pragma(legacy.file(), "schema_version")).isEqualTo(schemaVersion);
        assertThat(RawSqlite.schema(legacy.file())).isEqualTo(schema);
        assertThat(RawSqlite.tables(legacy.file())).isEqualTo(rows);
    }

    private SimpleQueue<Object> open() {
        return open(QUEUE);
    }

    private SimpleQueue<Object> open(String name) {
        return SimpleQueue.builder(dir).name(name).clock(clock).build();
    }

    private List<Map<String, Object>> tableInfo() throws SQLException {
        return RawSqlite.query(legacy.file(),
                "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('messages')");
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }

    private static String normalized(String sql) {
        return sql.replaceAll("\\s+", " ").strip();
    }
}
