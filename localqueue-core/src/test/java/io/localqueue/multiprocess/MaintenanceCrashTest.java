package io.localqueue.multiprocess;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.testsupport.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Maintenance under crashes: a child JVM replays dead letters, claims and fails, acknowledges or nacks, purges and
 * vacuums at random on one queue, and is killed with {@code kill -9} at a random moment; after every kill, each job
 * is still stored unless the child asked for its acknowledgement, and no job is acknowledged that it did not ask for.
 * The runs on one queue share it, so each starts from what the previous kill left; the next child's JVM starts while
 * the current one works, and opens the queue only once it is killed. The seed is printed, and
 * {@code -Dlocalqueue.test.seed} replays it; {@code -Dlocalqueue.test.crashFiles} runs a longer campaign. On the SQLite
 * file here; a subclass runs it on a PostgreSQL schema.
 */
@Tag("file-only")
class MaintenanceCrashTest extends MultiProcessTestBase {

    private static final int JOBS = 2_000;
    private static final int DEAD_LETTERS = 500;
    private static final int ACKED = 300;
    /** Kills per queue, each run starting from what the last kill left. */
    private static final int KILLS = 20;
    private static final String PAYLOAD = "x".repeat(400);

    @Test
    void noJobIsLostOrAcknowledgedWithoutAnAckAcrossKills() throws Exception {
        long seed = Long.getLong("localqueue.test.seed", System.nanoTime());
        int queues = Integer.getInteger("localqueue.test.crashFiles", queuesPerRun());
        System.out.println(getClass().getSimpleName() + " seed " + seed + ", " + queues + " queues of " + KILLS
                + " kills");
        Random random = new Random(seed);
        ChildProcess next = startChild(0);
        for (int number = 0; number < queues; number++) {
            Target target = target(number);
            Path ledger = dir.resolve("acked-" + number + ".txt");
            List<Long> ids = prepare(target, ledger);
            for (int run = 0; run < KILLS; run++) {
                ChildProcess child = next;
                child.expect(QueueChild.READY);
                child.send(QueueChild.GO);
                child.send(target.opened() + "\t" + ledger + "\t" + random.nextLong());
                next = startChild(number * KILLS + run + 1); // it starts and warms up while this one works
                TimeUnit.MILLISECONDS.sleep(killAfterMillis(random)); // the moment of the kill is the input
                child.killHard();
                assertNothingLost(target, ids, ledger, "queue " + number + ", after kill " + run + " of seed " + seed);
            }
            System.out.println("queue " + number + ": " + (Files.readAllLines(ledger, UTF_8).size() - ACKED)
                    + " acknowledgements asked for across " + KILLS + " kills");
        }
        next.close();
    }

    /**
     * How many queues a run of the suite takes through {@value #KILLS} kills each: 100 kills on the file, with a new
     * seed each run (about 110 s on 2 cores); {@code -Dlocalqueue.test.crashFiles} runs a longer campaign.
     */
    int queuesPerRun() {
        return 5;
    }

    /** How long a child works before it is killed: from its opening of the queue to well into its work. */
    long killAfterMillis(Random random) {
        return 50 + random.nextInt(550);
    }

    /** Where queue {@code number} lives: a directory of the test's own. */
    Target target(int number) {
        Path directory = dir.resolve("queue-" + number);
        return new Target(directory.toString(), "messages",
                () -> DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("localqueue.db")));
    }

    /**
     * Where a queue lives: what the child opens (see {@link MaintenanceChild#database(String)}), the table holding
     * its rows, and a plain connection that reads it.
     */
    record Target(String opened, String table, Connect connect) {
    }

    /** Opens a plain connection. */
    @FunctionalInterface
    interface Connect {
        Connection open() throws SQLException;
    }

    /** Starts a child JVM, which prints that it is ready once warmed up and then waits for its queue. */
    private ChildProcess startChild(int number) {
        return children.start("maintenance-" + number, MaintenanceChild.class, "maintenance");
    }

    /** 2,000 jobs, 500 of them dead letters and 300 acknowledged (and in the ledger). */
    private static List<Long> prepare(Target target, Path ledger) throws Exception {
        List<String> acked = new ArrayList<>();
        List<Long> ids;
        try (LocalQueueDatabase database = MaintenanceChild.database(target.opened());
             SimpleQueue<Object> queue = MaintenanceChild.open(database)) {
            ids = queue.putMany(IntStream.range(0, JOBS).mapToObj(i -> EnqueueItem.<Object>of(i + PAYLOAD))
                    .toList());
            for (int i = 0; i < DEAD_LETTERS; i++) {
                queue.fail(queue.getNowait(), "prepared");
            }
            for (int i = 0; i < ACKED; i++) {
                Job<Object> job = queue.getNowait();
                acked.add(Long.toString(job.id()));
                queue.ack(job);
            }
        }
        Files.write(ledger, acked, UTF_8);
        return ids;
    }

    private static void assertNothingLost(Target target, List<Long> ids, Path ledger, String when) throws Exception {
        Set<Long> askedToAck = new HashSet<>();
        for (String line : Files.readAllLines(ledger, UTF_8)) {
            if (!line.isBlank()) {
                askedToAck.add(Long.parseLong(line.trim()));
            }
        }
        Map<Long, String> rows = new HashMap<>();
        try (Connection connection = target.connect().open();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(
                     "SELECT id, status, attempts, failure_reason, updated_at, receipt FROM " + target.table()
                             + " WHERE queue = 'maintenance'")) {
            while (result.next()) {
                long id = result.getLong(1);
                rows.put(id, "status " + result.getInt(2) + ", attempts " + result.getInt(3) + ", reason "
                        + result.getString(4) + ", updated_at " + result.getLong(5) + ", receipt "
                        + result.getString(6));
                if (result.getInt(2) == 2) {
                    assertThat(askedToAck).as("%s: job %d is acknowledged (%s) but nobody asked for it", when, id,
                            rows.get(id)).contains(id);
                }
            }
        }
        for (long id : ids) {
            if (!askedToAck.contains(id)) {
                assertThat(rows).as("%s: job %d was never acknowledged but is gone", when, id).containsKey(id);
            }
        }
    }
}
