package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Headers put with a job come back with every delivery of it, unchanged, and leave with the job. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobHeadersTest extends QueueTestBase {

    private static final Map<String, String> TRACE = orderedHeaders(
            "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "tracestate", "vendor=opaque",
            "baggage", "tenant=acme, région=é");

    private SimpleQueue<Object> queue;

    @BeforeEach
    void openQueue() {
        queue = open(SimpleQueue.builder(database()).name("emails").delivery(new DeliveryPolicy(Duration.ofSeconds(30), 3))
                .clock(clock));
    }

    @Test
    void headersComeBackWithTheJobInTheirOrderOnEveryDelivery() {
        long id = putOne(EnqueueItem.<Object>of("hello").withHeaders(TRACE));

        Job<Object> first = queue.getNowait();
        assertThat(first.id()).isEqualTo(id);
        assertThat(first.headers()).isEqualTo(TRACE);
        assertThat(first.headers().keySet()).containsExactly("traceparent", "tracestate", "baggage");
        queue.nack(first);

        Job<Object> second = queue.getNowait();
        assertThat(second.attempts()).isEqualTo(1);
        assertThat(second.headers()).isEqualTo(TRACE);
        assertThatThrownBy(() -> second.headers().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aJobPutWithoutHeadersHasNone() {
        queue.put("plain");
        queue.putMany(List.of(EnqueueItem.of("a"), EnqueueItem.of("b", "job-b")));

        assertThat(DueJobs.claimAll(queue)).hasSize(3).allSatisfy(job -> assertThat(job.headers()).isEmpty());
    }

    @Test
    void eachJobOfABatchKeepsItsOwnHeaders() {
        Map<String, String> other = Map.of("traceparent", "00-11111111111111111111111111111111-2222222222222222-00");

        for (boolean withJobIds : List.of(false, true)) {
            queue.putMany(List.of(
                    new EnqueueItem<>("a", withJobIds ? "a-" + withJobIds : null, TRACE),
                    new EnqueueItem<>("b", withJobIds ? "b-" + withJobIds : null),
                    new EnqueueItem<>("c", withJobIds ? "c-" + withJobIds : null, other)));

            assertThat(DueJobs.claimAll(queue)).as("with job ids: %s", withJobIds).extracting(Job::headers)
                    .containsExactly(TRACE, Map.of(), other);
        }
    }

    @Test
    void aDuplicateJobIdKeepsTheHeadersTheJobWasFirstPutWith() {
        long id = putOne(EnqueueItem.<Object>of("first", "job-1").withHeaders(TRACE));

        List<Long> ids = queue.putMany(List.of(EnqueueItem.<Object>of("again", "job-1").withHeaders(Map.of("a", "b")),
                EnqueueItem.<Object>of("new", "job-2").withHeaders(Map.of("c", "d")),
                EnqueueItem.<Object>of("again in the batch", "job-2").withHeaders(Map.of("e", "f"))));

        assertThat(ids).containsExactly(id, ids.get(1), ids.get(1));
        assertThat(DueJobs.claimAll(queue)).extracting(Job::data, Job::headers).containsExactly(
                tuple("first", TRACE),
                tuple("new", Map.of("c", "d")));
    }

    @Test
    void aReplayedDeadLetterKeepsItsHeaders() {
        long id = putOne(EnqueueItem.<Object>of("hello").withHeaders(TRACE));
        queue.fail(queue.getNowait(), "ValueError: bad address");

        queue.retryFailed(id);

        Job<Object> replayed = queue.getNowait();
        assertThat(replayed.attempts()).isZero();
        assertThat(replayed.headers()).isEqualTo(TRACE);
    }

    @Test
    void purgeDeletesTheHeadersWithTheirJobs() throws SQLException {
        putOne(EnqueueItem.<Object>of("acked").withHeaders(TRACE));
        putOne(EnqueueItem.<Object>of("failed").withHeaders(TRACE));
        long kept = putOne(EnqueueItem.<Object>of("ready").withHeaders(TRACE));
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait());
        clock.advance(Duration.ofMinutes(1));

        assertThat(queue.purge(Duration.ofSeconds(1), true)).isEqualTo(2);

        try (var connection = TestDatabases.connect(dir)) {
            assertThat(RawSqlite.rows(connection, "SELECT message_id FROM message_headers"))
                    .extracting(row -> ((Number) row.get(0)).longValue()).containsExactly(kept);
        }
    }

    @Test
    void storedHeadersThatAreNotAJsonObjectOfStringsReadAsNone() throws SQLException {
        List<Long> ids = queue.putMany(List.of(EnqueueItem.<Object>of("a").withHeaders(TRACE),
                EnqueueItem.<Object>of("b").withHeaders(TRACE), EnqueueItem.<Object>of("c").withHeaders(TRACE)));
        try (var connection = TestDatabases.connect(dir); var statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE message_headers SET headers = 'not json' WHERE message_id = " + ids.get(0));
            statement.executeUpdate("UPDATE message_headers SET headers = '{\"a\": {\"b\": 1}}' WHERE message_id = "
                    + ids.get(1));
        }

        assertThat(DueJobs.claimAll(queue)).extracting(Job::headers).containsExactly(Map.of(), Map.of(), TRACE);
    }

    @ParameterizedTest
    @MethodSource("badHeaders")
    void badHeadersAreRefusedNamingTheItemAndNothingIsWritten(Map<String, String> headers, String message) {
        assertThatThrownBy(() -> queue.putMany(List.of(EnqueueItem.of("fine"),
                EnqueueItem.<Object>of("bad").withHeaders(headers))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("items[1].headers")
                .hasMessageContaining(message);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    static Stream<Arguments> badHeaders() {
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("traceparent", null);
        Map<String, String> nullName = new HashMap<>();
        nullName.put(null, "x");
        return Stream.of(
                Arguments.of(Map.of("", "x"), "without a name"),
                Arguments.of(nullName, "without a name"),
                Arguments.of(nullValue, "no value for header 'traceparent'"),
                Arguments.of(Map.of("baggage", "a\uD800"), "lone UTF-16 surrogate"),
                Arguments.of(
                        Map.of("baggage", "x".repeat(EnqueueItem.MAX_HEADERS_LENGTH)), "over the limit of 16384"));
    }

    @Test
    void headersUpToTheLimitAreKept() {
        Map<String, String> full = Map.of("baggage", "x".repeat(EnqueueItem.MAX_HEADERS_LENGTH - "baggage".length()));

        putOne(EnqueueItem.<Object>of("big").withHeaders(full));

        assertThat(queue.getNowait().headers()).isEqualTo(full);
    }

    @Test
    void anItemKeepsTheHeadersItWasGivenAndNullMeansNone() {
        Map<String, String> mutable = new LinkedHashMap<>(TRACE);
        EnqueueItem<String> item = EnqueueItem.of("a").withHeaders(mutable);
        mutable.put("later", "change");

        assertThat(item.headers()).isEqualTo(TRACE);
        assertThat(new EnqueueItem<>("a", null, null).headers()).isEmpty();
        assertThat(EnqueueItem.of("a", "id")).isEqualTo(new EnqueueItem<>("a", "id", Map.of()));
    }

    private long putOne(EnqueueItem<Object> item) {
        return queue.putMany(List.of(item)).get(0);
    }


    private static Map<String, String> orderedHeaders(String... namesAndValues) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }
}
