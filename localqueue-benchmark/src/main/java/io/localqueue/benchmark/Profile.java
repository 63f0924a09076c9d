package io.localqueue.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The sizes of one benchmark run. {@code smoke} only proves the harness works; {@code standard} measures the
 * in-process scenarios; {@code multiprocess} measures producers and consumers in separate JVMs.
 *
 * @param name the profile name
 * @param inProcess whether the in-process scenarios (single operations, pipelines, backlog, wake-ups, idle CPU) run
 * @param warmupOperations operations run before each measured loop, unmeasured; for multiprocess mixes, the jobs
 *                         the producers put together on the mix's shared warm-up queue
 * @param putOperations puts in the {@code put} scenario (also the rows of {@code putMany-1})
 * @param putManyBatchSizes the batch sizes of the {@code putMany} scenarios
 * @param putManyRows rows per {@code putMany} scenario with batches larger than 1
 * @param getAckOperations claim+ack pairs in {@code get+ack}
 * @param roundtripOperations put+claim+ack round trips in {@code roundtrip}
 * @param pipelineJobs jobs through each pipeline scenario
 * @param pipelineWarmupJobs jobs through each pipeline before its measured run
 * @param workerConcurrency the {@code Worker} concurrencies of the worker pipeline, one scenario each
 * @param listenerConcurrency the {@code @QueueListener} concurrency of the listener pipeline
 * @param backlogRows ready rows of the large backlog
 * @param backlogSmallRows ready rows of the small queue the backlog is compared with
 * @param backlogDelayedRows not-yet-due jobs put at the head of the large backlog
 * @param backlogOperations measured claim+ack pairs per backlog state
 * @param wakeupSamples wake-up latency samples per wake-up scenario
 * @param idleDuration how long the idle worker's CPU use is measured
 * @param multiprocessMixes producer/consumer process counts, one scenario each
 * @param multiprocessJobs jobs per multiprocess scenario
 * @param consumerConcurrency the {@code Worker} concurrency inside each consumer process
 * @param rounds how many times each scenario compared with a raw limit runs, each time right after its raw
 *               workloads; the report keeps the round with the median ratio
 * @param warmupTime the longest warm-up before a measured region
 * @param measureTime the longest measured region (pipelines and multiprocess scenarios stop producing then, and
 * @param busRows source items of each event-bus ingestion and execution, or 0 for no event-bus scenarios
 * @param busDispatches measured dispatches of the event-bus dispatch scenarios
 *                    wait for what they produced to be acknowledged)
 * @param drainConsumers the numbers of consumer JVMs that drain a preloaded queue, one measured drain each (run on
 *                       PostgreSQL only), or empty for none
 * @param drainJobs jobs preloaded for each drain
 */
public record Profile(String name, boolean inProcess, int warmupOperations, int putOperations,
                      List<Integer> putManyBatchSizes, int putManyRows, int getAckOperations,
                      int roundtripOperations, int pipelineJobs, int pipelineWarmupJobs,
                      List<Integer> workerConcurrency, int listenerConcurrency, int backlogRows,
                      int backlogSmallRows, int backlogDelayedRows, int backlogOperations, int wakeupSamples,
                      Duration idleDuration, List<Mix> multiprocessMixes, int multiprocessJobs,
                      int consumerConcurrency, int rounds, Duration warmupTime, Duration measureTime,
                      int busRows, int busDispatches, List<Integer> drainConsumers, int drainJobs) {

    /** The profile names, in documentation order. */
    public static final List<String> NAMES = List.of("smoke", "standard", "multiprocess", "bus");

    /**
     * A number of producer and consumer processes.
     *
     * @param producers producer JVMs
     * @param consumers consumer JVMs
     */
    public record Mix(int producers, int consumers) {
        /**
         * Returns the label used in scenario names.
         *
         * @return such as {@code 4P/1C}
         */
        public String label() {
            return producers + "P/" + consumers + "C";
        }
    }

    /**
     * Returns a profile by name.
     *
     * @param name {@code smoke}, {@code standard} or {@code multiprocess}
     * @return the profile
     * @throws IllegalArgumentException for any other name
     */
    public static Profile named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "smoke" -> smoke();
            case "standard" -> standard();
            case "multiprocess" -> multiprocess();
            case "bus" -> bus();
            default -> throw new IllegalArgumentException("unknown profile '" + name + "'; use one of " + NAMES);
        };
    }

    /**
     * Tiny sizes that run every scenario, including one multiprocess mix, in seconds: a plumbing check, not
     * performance evidence.
     *
     * @return the profile
     */
    public static Profile smoke() {
        return new Profile("smoke", true, 10, 50, List.of(1, 10, 100), 200, 50, 50, 300, 50, List.of(2), 2, 1_000,
                200, 50, 50, 5, Duration.ofMillis(500), List.of(new Mix(2, 2)), 100, 2, 2, Duration.ofSeconds(1),
                Duration.ofSeconds(5), 500, 100, List.of(1, 2), 400);
    }

    /**
     * The in-process measurement: single operations, pipelines, a million-row backlog, wake-ups and idle CPU.
     *
     * @return the profile
     */
    public static Profile standard() {
        return new Profile("standard", true, 10_000, 20_000, List.of(1, 10, 100, 1_000), 200_000, 20_000, 20_000,
                200_000, 10_000, List.of(1, 4), 4, 1_000_000, 10_000, 10_000, 5_000, 200, Duration.ofSeconds(10),
                List.of(), 0, 4, 3, Duration.ofSeconds(3), Duration.ofSeconds(15), 0, 0, List.of(), 0);
    }

    /**
     * Producers and consumers in separate JVMs: 1P/1C, 1P/2C, 1P/4C, 4P/1C and 4P/4C; on PostgreSQL also 1, 2 and 3
     * consumer JVMs draining 60,000 preloaded jobs each.
     *
     * @return the profile
     */
    public static Profile multiprocess() {
        return new Profile("multiprocess", false, 40_000, 0, List.of(), 0, 0, 20_000, 0, 0, List.of(), 0, 0, 0, 0, 0,
                0, Duration.ZERO,
                List.of(new Mix(1, 1), new Mix(1, 2), new Mix(1, 4), new Mix(4, 1), new Mix(4, 4)), 100_000, 4,
                1, Duration.ofSeconds(3), Duration.ofSeconds(30), 0, 0, List.of(1, 2, 3), 60_000);
    }

    /**
     * The event bus: ingestion in batches of 100 to 10,000 with fan-out 1 and 5, with and without identities,
     * repeated dispatch, the bus pipeline and handler chain beside the Worker pipeline, and an execution of a CSV of
     * 100,000 rows.
     *
     * @return the profile
     */
    public static Profile bus() {
        return new Profile("bus", false, 10_000, 0, List.of(), 0, 0, 0, 200_000, 10_000, List.of(), 0, 0, 0, 0, 0, 0,
                Duration.ZERO, List.of(), 0, 4, 3, Duration.ofSeconds(3), Duration.ofSeconds(15), 100_000, 20_000,
                List.of(), 0);
    }

    /**
     * Returns the limits of a measured loop of single operations.
     *
     * @param operations the measured operations asked for
     * @return the limits, with this profile's warm-up and time budgets
     */
    public OperationLoop.Limits limits(int operations) {
        return new OperationLoop.Limits(warmupOperations, warmupTime, operations, measureTime);
    }

    /**
     * Returns the limits of a measured loop of batches.
     *
     * @param batchSize rows per batch
     * @param rows the measured rows asked for
     * @return the limits, counted in batches
     */
    public OperationLoop.Limits batchLimits(int batchSize, int rows) {
        return new OperationLoop.Limits(warmupBatches(batchSize), warmupTime, rows / batchSize, measureTime);
    }

    /**
     * Returns the rows of one {@code putMany} scenario: batches of 1 are as many as {@code put}'s operations, larger
     * batches total {@link #putManyRows()}.
     *
     * @param batchSize the batch size
     * @return the rows, a whole number of batches
     */
    public int putManyRowsFor(int batchSize) {
        int rows = batchSize == 1 ? putOperations : putManyRows;
        return Math.max(1, rows / batchSize) * batchSize;
    }

    /**
     * Returns how many unmeasured batches precede a measured loop of batches: enough to cover
     * {@link #warmupOperations()} rows, and at least two.
     *
     * @param batchSize the batch size
     * @return the warm-up batches
     */
    private int warmupBatches(int batchSize) {
        return Math.max(2, (warmupOperations + batchSize - 1) / batchSize);
    }
}
