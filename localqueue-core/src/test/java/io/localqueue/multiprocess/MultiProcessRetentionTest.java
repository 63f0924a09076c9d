package io.localqueue.multiprocess;

import static io.localqueue.multiprocess.QueueChild.DONE;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.READY;
import static io.localqueue.multiprocess.QueueChild.RUN_RETENTION;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.testsupport.ChildProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Processes racing to run one queue's retention: each finished job is deleted once, by whichever process held the
 * queue's turn, and no pending or leased job is touched.
 */
class MultiProcessRetentionTest extends MultiProcessTestBase {

    private static final int PROCESSES = 3;
    private static final int RUNS = 20;

    @Test
    void processesRacingToRunTheRetentionDeleteEachFinishedJobOnceAndNothingPending() {
        int acked = 1_500;
        int failed = 200;
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).retention(Duration.ofDays(1), null).build()) {
            queue.putMany(IntStream.range(0, acked + failed + 300).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
            for (int i = 0; i < acked; i++) {
                queue.ack(queue.getNowait());
            }
            for (int i = 0; i < failed; i++) {
                queue.fail(queue.getNowait(), "dead");
            }
            List<Job<Object>> leased = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                leased.add(queue.getNowait());
            }

            // the children start well over a millisecond later, so every finished job is older than their cutoff
            List<ChildProcess> runners = children.startReady(PROCESSES, RUN_RETENTION, dir, RUNS);
            ChildProcesses.sendAll(runners, GO);
            long deleted = 0;
            for (ChildProcess runner : runners) {
                List<String> done = runner.expect(DONE);
                deleted += Long.parseLong(done.get(0));
                runner.awaitSuccess();
            }

            assertThat(deleted).as("finished jobs deleted across the processes").isEqualTo(acked + failed);
            assertThat(queue.stats()).isEqualTo(new QueueStats(200, 100, 0, 0));
            for (Job<Object> job : leased) {
                queue.ack(job);
            }
        }
    }
}
