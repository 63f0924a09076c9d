package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random maintenance beside consumption, checked after every step against a ledger of the acknowledgements asked
 * for: replays of dead letters from random pages of the list, claims that are failed, acknowledged, nacked or
 * abandoned (their holder gone, their lease left to run out), purges and vacuums. After each step no job is
 * acknowledged that nobody asked to acknowledge, no job is gone that was not acknowledged, and the leased rows are
 * exactly the deliveries held, so a claim never leases more than it hands out and a settlement never moves another
 * row. The in-process twin of {@code MaintenanceCrashTest}, at many more steps than kills can afford.
 *
 * <p>Replay one walk with {@code -Dlocalqueue.ledger.seed=<seed>}.
 */
class AcknowledgementLedgerTest extends QueueTestBase {

    private static final int JOBS = 120;
    private static final int STEPS = 400;
    private static final Duration LEASE = Duration.ofSeconds(30);

    static LongStream seeds() {
        String replay = System.getProperty("localqueue.ledger.seed");
        return replay == null ? LongStream.range(1, 21) : LongStream.of(Long.parseLong(replay));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void noJobIsAcknowledgedWithoutAnAckOrLostWithoutOne(long seed) throws Exception {
        Random random = new Random(seed);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("ledger")
                .delivery(new DeliveryPolicy(LEASE, 5)).clock(clock));
        List<Long> ids = queue.putMany(IntStream.range(0, JOBS).mapToObj(i -> EnqueueItem.<Object>of("job-" + i))
                .toList());
        Set<Long> askedToAck = new HashSet<>();
        Map<Long, Job<Object>> held = new HashMap<>();
        List<String> steps = new ArrayList<>();
        try (Connection connection = TestDatabases.connect(dir);
             PreparedStatement rows = connection.prepareStatement(
                     "SELECT id, status, receipt FROM messages WHERE queue = ?")) {
            rows.setString(1, queue.name());
            for (int step = 0; step < STEPS; step++) {
                String done = step(queue, random, askedToAck, held);
                steps.add(done);
                try {
                    check(rows, ids, askedToAck, held);
                } catch (AssertionError mismatch) {
                    throw new AssertionError("seed " + seed + ", step " + step + " after "
                            + steps.subList(Math.max(0, steps.size() - 8), steps.size()) + ": "
                            + mismatch.getMessage(), mismatch);
                }
            }
        }
    }

    /** One random operation; what it did, for a failure's report. */
    private String step(SimpleQueue<Object> queue, Random random, Set<Long> askedToAck, Map<Long, Job<Object>> held) {
        int draw = random.nextInt(100);
        try {
            if (draw < 20) {
                List<FailedMessage<Object>> page = queue.listFailed(20, random.nextInt(40));
                if (page.isEmpty()) {
                    return "replay: no dead letter on the page";
                }
                long id = page.get(random.nextInt(page.size())).id();
                queue.retryFailed(id);
                return "replay " + id;
            }
            if (draw < 85) {
                Job<Object> job = queue.getNowait();
                if (draw < 40) {
                    queue.fail(job, "failed on purpose");
                    return "fail " + job.id();
                }
                if (draw < 60) {
                    askedToAck.add(job.id());
                    queue.ack(job);
                    return "ack " + job.id();
                }
                if (draw < 70) {
                    queue.nack(job);
                    return "nack " + job.id();
                }
                held.put(job.id(), job);
                return "abandon " + job.id() + " (its holder is gone)";
            }
            if (draw < 92) {
                return "purge " + queue.purge(Duration.ZERO);
            }
            if (draw < 95) {
                clock.advance(LEASE.plusSeconds(1));
                held.clear(); // every held lease has run out
                return "a lease later, " + queue.reclaimExpiredLeases() + " reclaimed";
            }
            queue.vacuum();
            return "vacuum";
        } catch (QueueEmptyException | JobNotFoundException nothing) {
            return "nothing (" + nothing.getClass().getSimpleName() + ")";
        }
    }

    /** The three rules, read from the table itself. */
    private static void check(PreparedStatement select, List<Long> ids, Set<Long> askedToAck,
                              Map<Long, Job<Object>> held) throws SQLException {
        Map<Long, Integer> status = new HashMap<>();
        Set<Long> leased = new HashSet<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                long id = rows.getLong(1);
                status.put(id, rows.getInt(2));
                if (rows.getInt(2) == 1) {
                    leased.add(id);
                    Job<Object> holder = held.get(id);
                    assertThat(holder == null || holder.receipt().equals(rows.getString(3)))
                            .as("job %d is leased under the receipt its holder got", id).isTrue();
                }
            }
        }
        status.forEach((id, state) -> {
            if (state == 2) {
                assertThat(askedToAck).as("job %d is acknowledged but nobody asked for it", id).contains(id);
            }
        });
        for (long id : ids) {
            if (!askedToAck.contains(id)) {
                assertThat(status).as("job %d was never acknowledged but is gone", id).containsKey(id);
            }
        }
        assertThat(leased).as("the leased rows are the deliveries held").containsAll(held.keySet());
        assertThat(held.keySet()).as("the leased rows are the deliveries held, no more").containsAll(leased);
    }
}
