package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code worker-pipeline-cN}: one producer thread puts batches of 1,000 with {@link SimpleQueue#putMany(List)} while
 * a {@link Worker} with concurrency N, whose handler does nothing, claims and acknowledges them; compared with the
 * raw batched pipeline.
 */
public final class WorkerPipelineScenario extends PerModeScenario {

    /** The report section of pipeline scenarios. */
    public static final String GROUP = "pipeline";

    private final int concurrency;

    /**
     * Creates the scenario for one worker concurrency.
     *
     * @param concurrency the worker's concurrency
     */
    public WorkerPipelineScenario(int concurrency) {
        this.concurrency = concurrency;
    }

    @Override
    public String name() {
        return "worker-pipeline-c" + concurrency;
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.PIPELINE);
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        OperationLoop.Limits limits = pipelineLimits(context.profile());
        AckLedger ledger = PipelineRun.ledger(limits);
        try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name()), name(), mode)) {
            Worker<BenchMessage> worker = Worker.builder(queue, job -> { })
                    .concurrency(concurrency)
                    .observer(new AckObserver(ledger::record))
                    .build();
            PipelineRun.Outcome outcome;
            worker.start();
            try {
                outcome = PipelineRun.run(batch -> queue.putMany(items(batch)), ledger, limits);
            } finally {
                worker.stop(Duration.ofSeconds(30));
            }
            return pipelineResult(name(), mode, outcome)
                    .detail("workerConcurrency", concurrency)
                    .validation(outcome.validation().and(QueueChecks.counts(queue, 0, 0,
                            outcome.warmups() + outcome.jobs(), 0)))
                    .build();
        }
    }

    /**
     * Returns the limits of a pipeline run in a profile.
     *
     * @param profile the profile
     * @return warm-up and measured jobs and time budgets
     */
    static OperationLoop.Limits pipelineLimits(Profile profile) {
        return new OperationLoop.Limits(profile.pipelineWarmupJobs(), profile.warmupTime(), profile.pipelineJobs(),
                profile.measureTime());
    }

    /**
     * Starts the result of a pipeline scenario.
     *
     * @param name the scenario name
     * @param mode the durability mode
     * @param outcome the measured run
     * @return a builder with throughput, latency and baseline set
     */
    static ScenarioResult.Builder pipelineResult(String name, DurabilityMode mode, PipelineRun.Outcome outcome) {
        return ScenarioResult.builder(name, GROUP, mode)
                .throughput(outcome.jobs(), "jobs", outcome.elapsedNanos())
                .requested(outcome.requested())
                .latency(outcome.latencies(), "put of the job's batch to its ack")
                .baseline(RawWorkload.PIPELINE)
                .detail("producerBatch", PipelineRun.BATCH);
    }

    private static List<EnqueueItem<BenchMessage>> items(List<BenchMessage> batch) {
        List<EnqueueItem<BenchMessage>> items = new ArrayList<>(batch.size());
        for (BenchMessage message : batch) {
            items.add(EnqueueItem.of(message));
        }
        return items;
    }
}
