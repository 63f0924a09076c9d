package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueTestBase;
import io.localqueue.TestDatabases;
import io.localqueue.SimpleQueue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A file whose jobs carry headers, worked by the statements the Python library 1.4 runs (its open-time DDL, claim,
 * ack, fail, retry_failed, purge, put and integrity checks, on a connection with foreign keys on, as its connections
 * have them), none of which knows {@code message_headers}: the Python side sees the jobs as it wrote them itself, and
 * its purge takes their headers along.
 */
@Tag(TestDatabases.FILE_ONLY)
class PythonStatementsOnHeadersTest extends QueueTestBase {

    private static final String QUEUE = "emails";
    private static final Map<String, String> TRACE = Map.of(
            "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

    private Path file;
    private long traced;
    private long plain;
    private long tracedWithJobId;

    @BeforeEach
    void putJobsWithAndWithoutHeaders() {
        file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (SimpleQueue<Object> queue = javaQueue()) {
            List<Long> ids = queue.putMany(List.of(EnqueueItem.<Object>of(Map.of("to", "a@example.com"))
                            .withHeaders(TRACE), EnqueueItem.of(Map.of("to", "b@example.com")),
                    EnqueueItem.<Object>of(Map.of("to", "c@example.com"), "job-c").withHeaders(TRACE)));
            traced = ids.get(0);
            plain = ids.get(1);
            tracedWithJobId = ids.get(2);
        }
    }

    @Test
    void pythonClaimsJobsWithHeadersInIdOrderWithTheirPayloadBytesAsWritten() throws SQLException {
        try (Connection python = pythonOpens()) {
            for (long expected : List.of(traced, plain, tracedWithJobId)) {
                Map<String, Object> claimed = PythonStatements.claim(python, now(), "py-" + expected);
                assertThat(claimed).containsEntry("id", expected);
                assertThat(claimed.get("payload")).isEqualTo(hex(expectedPayload(expected)));
                assertThat(PythonStatements.ack(python, expected, "py-" + expected, now())).isEqualTo(1);
            }
            assertThat(PythonStatements.claim(python, now(), "py-none")).isNull();
        }
    }

    @Test
    void pythonsPurgeDeletesTheHeadersWithTheirJobs() throws SQLException {
        try (Connection python = pythonOpens()) {
            for (long id : List.of(traced, plain, tracedWithJobId)) {
                PythonStatements.claim(python, now(), "py-" + id);
                PythonStatements.ack(python, id, "py-" + id, now());
            }
            clock.advance(Duration.ofSeconds(1));

            assertThat(PythonStatements.purgeAcked(python, now())).isEqualTo(3);
            assertThat(RawSqlite.query(python, "SELECT * FROM message_headers")).isEmpty();
            assertThat(RawSqlite.query(python, "PRAGMA integrity_check")).containsExactly(
                    Map.of("integrity_check", "ok"));
            assertThat(RawSqlite.query(python, "PRAGMA foreign_key_check")).isEmpty();
        }
    }

    @Test
    void aJobPythonFailedAndReplayedKeepsItsHeadersForTheNextJavaDelivery() throws SQLException {
        try (Connection python = pythonOpens()) {
            PythonStatements.claim(python, now(), "py-1");
            assertThat(PythonStatements.fail(python, traced, "py-1", now(), "ValueError: bad address")).isEqualTo(1);
            assertThat(PythonStatements.retryFailed(python, traced, now())).isEqualTo(1);
        }

        try (SimpleQueue<Object> queue = javaQueue()) {
            Job<Object> replayed = queue.getNowait();
            assertThat(replayed.id()).isEqualTo(traced);
            assertThat(replayed.attempts()).isZero();
            assertThat(replayed.headers()).isEqualTo(TRACE);
        }
    }

    @Test
    void aJobPythonPutNextToJobsWithHeadersHasNone() throws SQLException {
        long fromPython;
        try (Connection python = pythonOpens()) {
            fromPython = PythonStatements.put(python, QUEUE, "{\"to\": \"d@example.com\"}", null, now());
            assertThat(RawSqlite.query(python, "PRAGMA foreign_key_check")).isEmpty();
        }

        try (SimpleQueue<Object> queue = javaQueue()) {
            List<Job<Object>> jobs = List.of(queue.getNowait(), queue.getNowait(), queue.getNowait(),
                    queue.getNowait());
            assertThat(jobs).extracting(Job::id).containsExactly(traced, plain, tracedWithJobId, fromPython);
            assertThat(jobs).extracting(Job::headers).containsExactly(TRACE, Map.of(), TRACE, Map.of());
            assertThat(jobs.get(3).data()).isEqualTo(Map.of("to", "d@example.com"));
        }
    }

    private SimpleQueue<Object> javaQueue() {
        return SimpleQueue.builder(dir).name(QUEUE).clock(clock).build();
    }

    /** Opens the file as the Python library does: foreign keys on, then its schema statements, all IF NOT EXISTS. */
    private Connection pythonOpens() throws SQLException {
        Connection connection = RawSqlite.connect(file);
        RawSqlite.runScript(connection, "storage/python-1.4-schema.sql");
        return connection;
    }

    private long now() {
        return clock.millis();
    }

    private String expectedPayload(long id) {
        String to = id == traced ? "a" : id == plain ? "b" : "c";
        return "{\"to\": \"" + to + "@example.com\"}";
    }

    private static String hex(String json) {
        return "X'" + HexFormat.of().withUpperCase().formatHex(json.getBytes(StandardCharsets.UTF_8)) + "'";
    }

    /** The statements of the Python library 1.4 for one queue, as its storage layer runs them. */
    private static final class PythonStatements {

        private static final long LEASE_MILLIS = 30_000;

        private PythonStatements() {
        }

        /** Claims the lowest due id, reclaim steps left out (no lease expires here); null when none is due. */
        static @Nullable Map<String, Object> claim(Connection python, long now, String receipt) throws SQLException {
            List<Map<String, Object>> due = RawSqlite.query(python, "SELECT id, payload, attempts FROM messages "
                    + "WHERE queue = ? AND status = 0 AND available_at <= ? ORDER BY id LIMIT 1", QUEUE, now);
            if (due.isEmpty()) {
                return null;
            }
            long id = (Long) due.get(0).get("id");
            update(python, "UPDATE messages SET status = 1, receipt = ?, lease_until = ?, attempts = attempts + 1, "
                    + "max_attempts = COALESCE(NULL, max_attempts), updated_at = ? "
                    + "WHERE id = ? AND queue = ? AND status = 0 AND available_at <= ?",
                    receipt, now + LEASE_MILLIS, now, id, QUEUE, now);
            return due.get(0);
        }

        static int ack(Connection python, long id, String receipt, long now) throws SQLException {
            return update(python, "UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, "
                    + "updated_at = ? WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?",
                    now, id, QUEUE, receipt, now);
        }

        static int fail(Connection python, long id, String receipt, long now, String lastError) throws SQLException {
            return update(python, "UPDATE messages SET status = 3, last_error = ?, "
                    + "failure_reason = 'explicit_permanent_failure', failure_category = NULL, receipt = NULL, "
                    + "lease_until = NULL, updated_at = ? "
                    + "WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?",
                    lastError, now, id, QUEUE, receipt, now);
        }

        static int retryFailed(Connection python, long id, long now) throws SQLException {
            return update(python, "UPDATE messages SET status = 0, available_at = ?, attempts = 0, receipt = NULL, "
                    + "lease_until = NULL, last_error = NULL, failure_reason = NULL, failure_category = NULL, "
                    + "updated_at = ? WHERE id = ? AND queue = ? AND status = 3", now, now, id, QUEUE);
        }

        static int purgeAcked(Connection python, long cutoff) throws SQLException {
            return update(python, "DELETE FROM messages WHERE queue = ? AND status = 2 AND updated_at < ? "
                    + "AND NOT EXISTS (SELECT 1 FROM event_bus_execution_deliveries d "
                    + "WHERE d.message_id = messages.id)", QUEUE, cutoff);
        }

        static long put(Connection python, String queue, String json, @Nullable String jobId, long now)
                throws SQLException {
            update(python, "INSERT OR IGNORE INTO messages (queue, payload, status, attempts, max_attempts, "
                    + "available_at, lease_until, receipt, job_id, dedup_key, dedup_fingerprint, created_at, "
                    + "updated_at) VALUES (?, ?, 0, 0, 4, ?, NULL, NULL, ?, NULL, NULL, ?, ?)",
                    queue, json.getBytes(StandardCharsets.UTF_8), now, jobId, now, now);
            return (Long) RawSqlite.query(python, "SELECT last_insert_rowid() AS id").get(0).get("id");
        }

        private static int update(Connection python, String sql, @Nullable Object... arguments)
                throws SQLException {
            try (PreparedStatement statement = python.prepareStatement(sql)) {
                for (int i = 0; i < arguments.length; i++) {
                    statement.setObject(i + 1, arguments[i]);
                }
                return statement.executeUpdate();
            }
        }
    }
}
