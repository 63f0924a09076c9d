package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A file whose jobs carry headers, worked by the statements the Python library 1.4 runs (its open-time DDL, claim,
 * ack, fail, retry_failed, purge, put and integrity checks, on a connection with foreign keys on, as its connections
 * have them), none of which knows {@code message_headers}: the Python side sees the jobs as it wrote them itself, and
 * its purge takes their headers along.
 */
class PythonStatementsOnHeadersTest extends PythonStatementsTestBase {

    private static final String QUEUE = "emails";

    PythonStatementsOnHeadersTest() {
        super(QUEUE);
    }
    private static final Map<String, String> TRACE = Map.of(
            "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

    private long traced;
    private long plain;
    private long tracedWithJobId;

    @BeforeEach
    void putJobsWithAndWithoutHeaders() {
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
                Map<String, Object> claimed = PythonStatements.claim(python, QUEUE, now(), "py-" + expected);
                assertThat(claimed).containsEntry("id", expected);
                assertThat(claimed.get("payload")).isEqualTo(hex(expectedPayload(expected)));
                assertThat(PythonStatements.ack(python, QUEUE, expected, "py-" + expected, now())).isEqualTo(1);
            }
            assertThat(PythonStatements.claim(python, QUEUE, now(), "py-none")).isNull();
        }
    }

    @Test
    void pythonsPurgeDeletesTheHeadersWithTheirJobs() throws SQLException {
        try (Connection python = pythonOpens()) {
            for (long id : List.of(traced, plain, tracedWithJobId)) {
                PythonStatements.claim(python, QUEUE, now(), "py-" + id);
                PythonStatements.ack(python, QUEUE, id, "py-" + id, now());
            }
            clock.advance(Duration.ofSeconds(1));

            assertThat(PythonStatements.purgeAcked(python, QUEUE, now())).isEqualTo(3);
            assertThat(RawSqlite.query(python, "SELECT * FROM message_headers")).isEmpty();
            assertThat(RawSqlite.query(python, "PRAGMA integrity_check")).containsExactly(
                    Map.of("integrity_check", "ok"));
            assertThat(RawSqlite.query(python, "PRAGMA foreign_key_check")).isEmpty();
        }
    }

    @Test
    void aJobPythonFailedAndReplayedKeepsItsHeadersForTheNextJavaDelivery() throws SQLException {
        try (Connection python = pythonOpens()) {
            PythonStatements.claim(python, QUEUE, now(), "py-1");
            assertThat(PythonStatements.fail(python, QUEUE, traced, "py-1", now(), "ValueError: bad address")).isEqualTo(1);
            assertThat(PythonStatements.retryFailed(python, QUEUE, traced, now())).isEqualTo(1);
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


    private String expectedPayload(long id) {
        String to = id == traced ? "a" : id == plain ? "b" : "c";
        return "{\"to\": \"" + to + "@example.com\"}";
    }

    private static String hex(String json) {
        return "X'" + HexFormat.of().withUpperCase().formatHex(json.getBytes(StandardCharsets.UTF_8)) + "'";
    }
}
