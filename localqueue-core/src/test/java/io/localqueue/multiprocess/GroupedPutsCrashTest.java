package io.localqueue.multiprocess;

import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.READY;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.sqlite.Failpoints;
import io.localqueue.testsupport.ChildProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A process that dies while many threads' puts share transactions loses no put that returned: every id a put
 * returned is in the file with that put's payload, each thread's jobs are there in its order without a gap, and at
 * most the one put of each thread that had not yet returned is there too. The child dies by a failpoint at the
 * commit of a shared transaction, or by {@code kill -9} at whatever moment the test reaches.
 */
class GroupedPutsCrashTest extends MultiProcessTestBase {

    private static final int THREADS = 8;
    private static final int ARM_AFTER = 400;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"before-commit", "after-commit", "kill"})
    void everyReturnedPutIsInTheFileAndEachThreadsJobsInItsOrder(String mode) throws Exception {
        Path directory = dir.resolve("queue");
        List<String> flags = mode.equals("kill") ? List.of() : List.of("-D" + Failpoints.PROPERTY + "=on");
        ChildProcess child = children.start("grouped-puts-" + mode, flags, GroupedPutsChild.class, mode,
                directory, THREADS, ARM_AFTER);
        child.expect(READY);
        child.send(GO);
        Map<String, Long> returned = new HashMap<>();
        List<String> lines;
        if (mode.equals("kill")) {
            while (returned.size() < ARM_AFTER) {
                record(child.nextLine(), returned);
            }
            child.killHard();
            lines = child.linesUntilExit(Duration.ofSeconds(30));
        } else {
            lines = child.linesUntilExit(Duration.ofSeconds(60));
            assertThat(child.awaitExit(Duration.ofSeconds(30))).as("halted by the failpoint; stderr:%n%s",
                    child.stderr()).isEqualTo(Failpoints.HALT_STATUS);
        }
        for (String line : lines) {
            record(line, returned);
        }
        assertThat(returned).hasSizeGreaterThanOrEqualTo(ARM_AFTER);

        Map<String, Long> stored = storedJobs(directory.resolve(LocalQueueDatabase.FILE_NAME));
        assertThat(stored).as("every put that returned is stored under its id").containsAllEntriesOf(returned);
        for (int thread = 0; thread < THREADS; thread++) {
            TreeMap<Integer, Long> mine = new TreeMap<>();
            for (Map.Entry<String, Long> job : stored.entrySet()) {
                String[] parts = job.getKey().split("-");
                if (Integer.parseInt(parts[0]) == thread) {
                    mine.put(Integer.parseInt(parts[1]), job.getValue());
                }
            }
            int last = lastReturned(returned, thread);
            assertThat(mine.keySet()).as("thread %d's jobs: its order, no gap, at most one put that never returned",
                    thread).containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(0, mine.isEmpty() ? -1
                            : mine.lastKey()).boxed().toList());
            assertThat(mine.isEmpty() ? -1 : mine.lastKey()).isBetween(last, last + 1);
            assertThat(new java.util.ArrayList<>(mine.values())).as("thread %d's ids ascend in its order", thread).isSorted();
        }
        try (SimpleQueue<String> queue = SimpleQueue.builder(directory, String.class).build()) {
            IntegrityCheckResult integrity = queue.checkIntegrity();
            assertThat(integrity.ok()).as("integrity: %s", integrity.messages()).isTrue();
            long id = queue.put("after the crash");
            assertThat(id).isGreaterThan(stored.values().stream().mapToLong(Long::longValue).max().orElse(0));
        }
    }

    private static void record(String line, Map<String, Long> returned) {
        String[] words = line.split(" ");
        if (words[0].equals(GroupedPutsChild.PUT)) {
            returned.put(words[1], Long.parseLong(words[2]));
        }
    }

    private static int lastReturned(Map<String, Long> returned, int thread) {
        int last = -1;
        for (String payload : returned.keySet()) {
            String[] parts = payload.split("-");
            if (Integer.parseInt(parts[0]) == thread) {
                last = Math.max(last, Integer.parseInt(parts[1]));
            }
        }
        return last;
    }

    /** Every job of the file, payload to id, read with plain JDBC. */
    private static Map<String, Long> storedJobs(Path file) throws Exception {
        Map<String, Long> jobs = new HashMap<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, payload FROM messages")) {
            while (rows.next()) {
                String json = new String(rows.getBytes(2), UTF_8);
                jobs.put(json.substring(1, json.length() - 1), rows.getLong(1));
            }
        }
        return jobs;
    }
}
