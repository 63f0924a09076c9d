package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueOptions;
import io.localqueue.Job;
import io.localqueue.QueueEmptyException;
import io.localqueue.SimpleQueue;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A file whose jobs carry due times, priorities and concurrency keys, worked by the statements the Python library 1.4
 * runs (its open-time DDL, claim, put): it honours every due time, claims in id order whatever the priorities, and
 * what it puts into a queue that uses priorities is claimed here at the default priority, in its place.
 */
class PythonStatementsOnPrioritiesTest extends PythonStatementsTestBase {

    private static final String QUEUE = "reports";

    PythonStatementsOnPrioritiesTest() {
        super(QUEUE);
    }

    private long delayed;
    private long urgent;
    private long plain;
    private long keyed;

    @BeforeEach
    void putJobsWithOptions() {
        try (SimpleQueue<Object> queue = javaQueue()) {
            plain = queue.put("plain");
            delayed = queue.put("delayed", null, EnqueueOptions.defaults().priority(-10)
                    .delay(Duration.ofMinutes(5)));
            urgent = queue.put("urgent", null, EnqueueOptions.defaults().priority(-10));
            keyed = queue.put("keyed", null, EnqueueOptions.defaults().priority(3).concurrencyKey("tenant-1"));
        }
    }

    @Test
    void pythonHonoursEveryDueTimeAndClaimsTheRestInIdOrder() throws SQLException {
        try (Connection python = pythonOpens()) {
            List<Long> claimed = new ArrayList<>();
            Map<String, Object> next;
            while ((next = PythonStatements.claim(python, QUEUE, now(), "py-" + claimed.size())) != null) {
                claimed.add((Long) next.get("id"));
            }
            assertThat(claimed).containsExactly(plain, urgent, keyed);

            clock.advance(Duration.ofMinutes(5));
            assertThat(PythonStatements.claim(python, QUEUE, now(), "py-late")).containsEntry("id", delayed);
        }
    }

    @Test
    void aJobPythonPutsIntoAQueueThatUsesPrioritiesIsClaimedHereAtTheDefaultPriority() throws SQLException {
        long fromPython;
        try (Connection python = pythonOpens()) {
            fromPython = PythonStatements.put(python, QUEUE, "\"from python\"", null, now());
        }

        try (SimpleQueue<Object> queue = javaQueue()) {
            List<Job<Object>> jobs = List.of(queue.getNowait(), queue.getNowait(), queue.getNowait(),
                    queue.getNowait());
            assertThat(jobs).extracting(Job::id).containsExactly(urgent, plain, fromPython, keyed);
            assertThat(jobs).extracting(Job::priority).containsExactly(-10, 0, 0, 3);
            assertThat(jobs.get(3).concurrencyKey()).isEqualTo("tenant-1");
            assertThat(jobs.get(2).data()).isEqualTo("from python");
            try {
                queue.getNowait();
                throw new AssertionError("the delayed job was claimed early");
            } catch (QueueEmptyException expected) {
                // the delayed job waits
            }
        }
    }

    @Test
    void aJobPythonPutsWhileThisLibraryClaimsTakesItsPlaceOnceTheSweepIntervalPassed() throws SQLException {
        try (SimpleQueue<Object> queue = javaQueue()) {
            assertThat(List.of(queue.getNowait(), queue.getNowait())).extracting(Job::id)
                    .containsExactly(urgent, plain);
            long fromPython;
            try (Connection python = pythonOpens()) {
                fromPython = PythonStatements.put(python, QUEUE, "\"from python\"", null, now());
            }
            clock.advance(Duration.ofMillis(50));

            assertThat(List.of(queue.getNowait(), queue.getNowait())).extracting(Job::id)
                    .containsExactly(fromPython, keyed);
        }
    }

    @Test
    void aClaimThatFindsTooFewPrioritizedJobsLooksForJobsPythonPutAtOnce() throws SQLException {
        try (SimpleQueue<Object> queue = javaQueue()) {
            assertThat(List.of(queue.getNowait(), queue.getNowait(), queue.getNowait())).extracting(Job::id)
                    .containsExactly(urgent, plain, keyed);
            long fromPython;
            try (Connection python = pythonOpens()) {
                fromPython = PythonStatements.put(python, QUEUE, "\"from python\"", null, now());
            }

            Job<Object> job = queue.getNowait();
            assertThat(job.id()).isEqualTo(fromPython);
            assertThat(job.priority()).isZero();
        }
    }

    @Test
    void pythonsOpenTimeStatementsLeaveTheAddedColumnsAndTheirIndexInPlace() throws SQLException {
        try (Connection python = pythonOpens()) {
            assertThat(RawSqlite.query(python, "SELECT name FROM pragma_table_info('messages')"))
                    .extracting(row -> row.get("name")).contains("priority", "concurrency_key");
            assertThat(RawSqlite.query(python, "PRAGMA integrity_check"))
                    .containsExactly(Map.of("integrity_check", "ok"));
        }
    }

}
