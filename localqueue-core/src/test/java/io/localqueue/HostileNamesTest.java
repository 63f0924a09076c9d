package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Queue names and job ids that try to break out of their column, collide or be mangled stay distinct or are refused. */
class HostileNamesTest extends QueueTestBase {

    /** A name holding NUL: a file keeps it, PostgreSQL's text cannot hold it. */
    private static final String WITH_NUL = "a\u0000b";

    /** Names that are valid text: each must stay itself, apart from every other (on a server, but the NUL one). */
    private static final List<String> DISTINCT = Stream.of(
            "twin?", "twin", "Twin", "it's", "\"quoted\"", "'; DROP TABLE messages; --", WITH_NUL, "a",
            "%", "_", "\\", "日本語", "\uD83D\uDE00", "?", "x".repeat(10_000), " padded ", "tab\there", "line\nbreak")
            .filter(name -> TestDatabases.onFile() || !name.equals(WITH_NUL)).toList();

    @ParameterizedTest
    @ValueSource(strings = {"twin\uD800", "twin\uDFFF", "\uDC00\uD800", "\uD800"})
    void aQueueNameWithALoneSurrogateIsRefusedByName(String name) {
        SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database());

        assertThatThrownBy(() -> builder.name(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("name holds a lone UTF-16 surrogate");
    }

    @Test
    void aJobIdWithALoneSurrogateIsRefusedAndNothingIsWritten() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), String.class));

        assertThatThrownBy(() -> queue.put("a", "id\uD800"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("jobId holds a lone");
        assertThatThrownBy(() -> queue.putMany(List.of(EnqueueItem.of("a", "fine"), EnqueueItem.of("b", "\uDFFF"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("items[1].jobId holds a lone");
        assertThat(queue.stats().total()).isZero();
    }

    @Test
    void queuesWithHostileNamesKeepTheirOwnJobs() throws Exception {
        List<SimpleQueue<String>> queues = new ArrayList<>();
        for (String name : DISTINCT) {
            SimpleQueue<String> queue = open(SimpleQueue.builder(database(), String.class).name(name));
            queue.put("job of " + name);
            queues.add(queue);
        }

        for (int i = 0; i < DISTINCT.size(); i++) {
            SimpleQueue<String> queue = queues.get(i);
            assertThat(queue.stats().ready()).as("queue %s", i).isEqualTo(1);
            assertThat(queue.getNowait().data()).isEqualTo("job of " + DISTINCT.get(i));
        }
        Set<Object> stored = new HashSet<>();
        try (Connection connection = TestDatabases.connect(dir)) {
            for (var row : RawSqlite.rows(connection, "SELECT DISTINCT queue FROM messages")) {
                stored.add(row.get(0));
            }
        }
        assertThat(stored).containsExactlyInAnyOrderElementsOf(DISTINCT);
    }

    @Test
    void onAServerANulInANameIsRefusedNamingItAndAFailureMessageWithOneIsKeptReadable() {
        assumeFalse(TestDatabases.onFile(), "a file keeps NUL, as queuesWithHostileNamesKeepTheirOwnJobs shows");
        SimpleQueue<String> named = open(SimpleQueue.builder(database(), String.class).name(WITH_NUL));
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), String.class));

        assertThatThrownBy(() -> named.put("job")).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("cannot store the NUL character (U+0000)");
        assertThatThrownBy(() -> queue.put("job", WITH_NUL)).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("cannot store the NUL character (U+0000)");
        assertThat(queue.stats().total()).as("nothing written").isZero();

        queue.put("job");
        queue.fail(queue.getNowait(), "broke on \u0000 here");
        assertThat(queue.listFailed(10, 0)).singleElement().extracting(FailedMessage::lastError)
                .isEqualTo("broke on \uFFFD here");
    }

    @Test
    void hostileJobIdsDeduplicateOnlyThemselves() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), String.class));
        List<Long> ids = new ArrayList<>();
        for (String jobId : DISTINCT) {
            ids.add(queue.put("payload of " + jobId, jobId));
        }

        assertThat(new HashSet<>(ids)).hasSameSizeAs(DISTINCT);
        for (int i = 0; i < DISTINCT.size(); i++) {
            assertThat(queue.put("again", DISTINCT.get(i))).as("job id %s", i).isEqualTo(ids.get(i));
        }
        for (String jobId : DISTINCT) {
            assertThat(queue.getNowait().data()).isEqualTo("payload of " + jobId);
        }
    }
}
