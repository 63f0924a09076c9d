package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueOptions;
import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The queue the dashboard scenario reads, built before its web application starts: ready rows, dead letters made by
 * claiming and failing the oldest jobs, a few jobs left under a lease and a few delayed by an hour; and the cursor of
 * the page that starts 90 % into the ready rows, found by walking {@link SimpleQueue#listJobs} page by page.
 *
 * @param ready ready jobs
 * @param deadLetters dead letters
 * @param leased jobs under a lease
 * @param delayed jobs not yet due
 * @param firstReadyId the id of the first ready job in claim order
 * @param firstDeadId the id of the first dead letter
 * @param deepPosition how many ready jobs come before the deep page
 * @param deepCursor the cursor the deep page continues after
 * @param deepFirstId the id of the deep page's first job
 * @param buildNanos how long building and walking took
 */
record DashboardBacklog(int ready, int deadLetters, int leased, int delayed, long firstReadyId, long firstDeadId,
                        int deepPosition, String deepCursor, long deepFirstId, long buildNanos) {

    private static final int LEASED = 8;
    private static final int DELAYED = 100;
    private static final Duration DELAY = Duration.ofHours(1);
    private static final int WALK_PAGE = SimpleQueue.MAX_PAGE;

    /**
     * Builds the queue in {@code directory}.
     *
     * @param directory the scenario's directory
     * @param queueName the queue's name
     * @param ready the ready jobs it ends with
     * @return what it holds
     */
    static DashboardBacklog build(Path directory, String queueName, int ready) {
        long start = System.nanoTime();
        int deadLetters = Math.max(1, ready / 100);
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, queueName, DurabilityMode.RELAXED)) {
            RunContext.preload(queue, deadLetters + LEASED + ready);
            for (int i = 0; i < deadLetters; i++) {
                queue.fail(queue.getNowait(), "dead letter for the dashboard's pages");
            }
            for (int i = 0; i < LEASED; i++) {
                queue.getNowait();
            }
            EnqueueOptions later = EnqueueOptions.defaults().delay(DELAY);
            for (int i = 0; i < DELAYED; i++) {
                queue.put(BenchMessage.of(i, System.nanoTime()), null, later);
            }
            int deepPosition = ready / 10 * 9;
            long firstReadyId = queue.listJobs(JobState.READY, null, 1).get(0).id();
            long firstDeadId = queue.listJobs(JobState.FAILED, null, 1).get(0).id();
            JobCursor cursor = walk(queue, deepPosition);
            StoredJob<BenchMessage> deepFirst = queue.listJobs(JobState.READY, cursor, 1).get(0);
            return new DashboardBacklog(ready, deadLetters, LEASED, DELAYED, firstReadyId, firstDeadId, deepPosition,
                    cursor.toString(), deepFirst.id(), System.nanoTime() - start);
        }
    }

    /** Follows the ready jobs' keyset pages to the cursor after the first {@code position} jobs. */
    private static JobCursor walk(SimpleQueue<BenchMessage> queue, int position) {
        JobCursor cursor = null;
        int passed = 0;
        while (passed < position) {
            List<StoredJob<BenchMessage>> page = queue.listJobs(JobState.READY, cursor,
                    Math.min(WALK_PAGE, position - passed));
            if (page.isEmpty()) {
                throw new IllegalStateException("the ready jobs ended after " + passed + " of " + position);
            }
            passed += page.size();
            cursor = page.get(page.size() - 1).cursor();
        }
        if (cursor == null) {
            throw new IllegalStateException("no ready job before the deep page");
        }
        return cursor;
    }
}
