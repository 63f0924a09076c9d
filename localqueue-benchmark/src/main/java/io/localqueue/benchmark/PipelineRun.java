package io.localqueue.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives a producer-to-consumer pipeline through a warm-up and a measured run. The calling thread produces batches
 * of {@value #BATCH} jobs, staying at most {@value #LEAD} jobs ahead of the acknowledgements so the queue never
 * grows into a backlog, while consumers started by the caller record their acknowledgements in an
 * {@link AckLedger}. Production stops at the job count or the time budget, whichever comes first; the measured
 * region then runs from just before the first measured batch is put to the commit of the last acknowledgement of
 * what was produced.
 */
final class PipelineRun {

    /** Jobs per producer batch. */
    static final int BATCH = 1_000;

    /** How far production may run ahead of acknowledgement, in jobs. */
    static final int LEAD = 4 * BATCH;

    private static final long TIMEOUT_SECONDS = 1_800;
    private static final long THROTTLE_NANOS = 100_000;

    /** Puts one batch. */
    @FunctionalInterface
    interface Producer {
        /**
         * Commits the batch.
         *
         * @param batch the jobs
         * @throws Exception when the put fails
         */
        void put(List<BenchMessage> batch) throws Exception;
    }

    /**
     * The measured run.
     *
     * @param warmups how many jobs the warm-up produced and acknowledged
     * @param jobs how many jobs were produced and acknowledged in the measured run
     * @param requested how many were asked for
     * @param elapsedNanos first measured put to last acknowledgement
     * @param latencies per job, from just before its batch was put to its acknowledgement
     * @param validation exactly-once acknowledgement of warm-up and measured jobs
     */
    record Outcome(int warmups, int jobs, int requested, long elapsedNanos, long[] latencies, Validation validation) {
    }

    private PipelineRun() {
    }

    /**
     * Returns a ledger sized for a warm-up and a measured run.
     *
     * @param limits the warm-up and measured job counts
     * @return the ledger the consumers must record into
     */
    static AckLedger ledger(OperationLoop.Limits limits) {
        return new AckLedger(limits.warmupOperations() + limits.operations());
    }

    /**
     * Runs the warm-up, then the measured run.
     *
     * @param producer puts one batch
     * @param ledger the ledger from {@link #ledger}, which the consumers record into
     * @param limits warm-up and measured jobs and time budgets
     * @return the measured run
     * @throws Exception when producing fails or the consumers do not finish in time
     */
    static Outcome run(Producer producer, AckLedger ledger, OperationLoop.Limits limits) throws Exception {
        long[] sent = new long[limits.warmupOperations() + limits.operations()];
        int warmups = produce(producer, ledger, 0, limits.warmupOperations(), limits.warmupTime().toNanos(),
                sent);
        long start = System.nanoTime();
        int jobs = produce(producer, ledger, warmups, limits.operations(), limits.time().toNanos(), sent);
        long elapsed = ledger.lastAckNanos() - start;
        long[] latencies = new long[jobs];
        for (int i = 0; i < jobs; i++) {
            int seq = warmups + i;
            latencies[i] = ledger.ackNanos(seq) - sent[seq];
        }
        return new Outcome(warmups, jobs, limits.operations(), elapsed, latencies, ledger.exactlyOnce(warmups + jobs));
    }

    /** Produces up to {@code count} jobs from sequence number {@code first}, then waits for all to be acknowledged. */
    private static int produce(Producer producer, AckLedger ledger, int first, int count, long budgetNanos,
                               long[] sent) throws Exception {
        long start = System.nanoTime();
        int done = 0;
        while (done < count && (done == 0 || System.nanoTime() - start < budgetNanos)) {
            while (first + done - ledger.acknowledged() >= LEAD) {
                LockSupport.parkNanos(THROTTLE_NANOS);
            }
            int size = Math.min(BATCH, count - done);
            long now = System.nanoTime();
            List<BenchMessage> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int seq = first + done + i;
                batch.add(BenchMessage.of(seq, now));
                sent[seq] = now;
            }
            producer.put(batch);
            done += size;
        }
        if (!ledger.awaitAcknowledged(first + done, TIMEOUT_SECONDS)) {
            throw new IllegalStateException("consumers acknowledged only " + ledger.acknowledged() + " of "
                    + (first + done) + " jobs");
        }
        return done;
    }
}
