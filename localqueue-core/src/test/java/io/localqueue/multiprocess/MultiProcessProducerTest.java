package io.localqueue.multiprocess;

import io.localqueue.testsupport.ChildProcess;
import static io.localqueue.multiprocess.QueueChild.FULL;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.PUT;
import static io.localqueue.multiprocess.QueueChild.PUT_BATCH_AGAINST_LIMIT;
import static io.localqueue.multiprocess.QueueChild.PUT_MANY_WITH_JOB_IDS;
import static io.localqueue.multiprocess.QueueChild.PUT_ONCE_AGAINST_LIMIT;
import static io.localqueue.multiprocess.QueueChild.PUT_WITH_JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.Job;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Producers in separate JVMs racing on one queue file: deduplication by job id and the pending-job limit. */
class MultiProcessProducerTest extends MultiProcessTestBase {

    private static final int LIMIT = 10;

    @Test
    void processesPuttingTheSameJobIdTogetherShareOneJob() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            List<ChildProcess> producers = children.startReady(4, PUT_WITH_JOB_ID, dir, "same-job");
            ChildProcesses.sendAll(producers, GO);
            List<Long> ids = new ArrayList<>();
            List<String> payloads = new ArrayList<>();
            for (ChildProcess producer : producers) {
                ids.add(Long.parseLong(producer.expect(PUT).get(0)));
                producer.awaitSuccess();
                payloads.add("from-" + producer.pid());
            }

            assertThat(ids).hasSize(4).containsOnly(ids.get(0));
            assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
            Job<Object> job = queue.getNowait();
            assertThat(job.id()).isEqualTo(ids.get(0));
            assertThat(job.data()).isIn(payloads);
        }
    }

    @Test
    void processesPuttingTheSameBatchOfJobIdsTogetherShareOneJobPerId() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            List<ChildProcess> producers = children.startReady(4, PUT_MANY_WITH_JOB_IDS, dir, 50);
            ChildProcesses.sendAll(producers, GO);
            List<List<Long>> batches = new ArrayList<>();
            for (ChildProcess producer : producers) {
                batches.add(ids(producer.expect(PUT).get(0)));
                producer.awaitSuccess();
            }

            assertThat(batches.get(0)).hasSize(50).doesNotHaveDuplicates();
            assertThat(batches).allSatisfy(batch -> assertThat(batch).isEqualTo(batches.get(0)));
            assertThat(queue.stats()).isEqualTo(new QueueStats(50, 0, 0, 0));
        }
    }

    @Test
    void processesRacingForTheLastRoomAdmitExactlyTheLimit() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            List<ChildProcess> producers = children.startReady(16, PUT_ONCE_AGAINST_LIMIT, dir, LIMIT);
            ChildProcesses.sendAll(producers, GO);
            List<Long> ids = new ArrayList<>();
            int full = 0;
            for (String put : putOutcomes(producers)) {
                if (put.equals(FULL)) {
                    full++;
                } else {
                    ids.add(Long.parseLong(put));
                }
            }

            assertThat(ids).hasSize(LIMIT).doesNotHaveDuplicates();
            assertThat(full).isEqualTo(16 - LIMIT);
            assertThat(queue.stats()).isEqualTo(new QueueStats(LIMIT, 0, 0, 0));
        }
    }

    @Test
    void processesRacingWithBatchesAdmitOnlyWholeBatchesThatFit() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            List<ChildProcess> producers = children.startReady(8, PUT_BATCH_AGAINST_LIMIT, dir, LIMIT, 3);
            ChildProcesses.sendAll(producers, GO);
            List<Long> ids = new ArrayList<>();
            int admitted = 0;
            int full = 0;
            for (String put : putOutcomes(producers)) {
                if (put.equals(FULL)) {
                    full++;
                } else {
                    List<Long> batch = ids(put);
                    assertThat(batch).hasSize(3);
                    ids.addAll(batch);
                    admitted++;
                }
            }

            assertThat(admitted).isEqualTo(3);
            assertThat(full).isEqualTo(5);
            assertThat(ids).hasSize(9).doesNotHaveDuplicates();
            assertThat(queue.stats()).isEqualTo(new QueueStats(9, 0, 0, 0));
        }
    }

    /**
     * Reads each producer's one outcome line and waits for it to exit: {@value QueueChild#FULL}, or the ids it put
     * (the words after {@value QueueChild#PUT}).
     */
    private static List<String> putOutcomes(List<ChildProcess> producers) {
        List<String> outcomes = new ArrayList<>();
        for (ChildProcess producer : producers) {
            String line = producer.nextLine();
            if (line.equals(FULL)) {
                outcomes.add(FULL);
            } else {
                assertThat(line).as("outcome of %s", producer).startsWith(PUT + " ");
                outcomes.add(line.substring(PUT.length() + 1));
            }
            producer.awaitSuccess();
        }
        return outcomes;
    }

    private static List<Long> ids(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(Long::valueOf).toList();
    }
}
