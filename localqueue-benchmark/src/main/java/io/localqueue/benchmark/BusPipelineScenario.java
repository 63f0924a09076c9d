package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bus-pipeline-cN}: one producer thread dispatches batches of 1,000 events ({@link EventBus#dispatchAll})
 * while a subscription consumed by N handlers acknowledges them; {@code bus-chain-cN}: each handler returns a
 * follow-up event, emitted with its acknowledgement, which a second subscription's handlers acknowledge. Each round
 * runs {@code worker-pipeline-cN} first, so the ratio to the plain Worker pipeline comes from the same run.
 */
public final class BusPipelineScenario extends PerModeScenario {

    private final int concurrency;
    private final boolean chain;

    /**
     * Creates the scenario.
     *
     * @param concurrency handlers per subscription
     * @param chain whether handlers emit a follow-up event
     */
    public BusPipelineScenario(int concurrency, boolean chain) {
        this.concurrency = concurrency;
        this.chain = chain;
    }

    @Override
    public String name() {
        return (chain ? "bus-chain-c" : "bus-pipeline-c") + concurrency;
    }

    @Override
    public boolean repeated() {
        return true;
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        Double worker = new WorkerPipelineScenario(concurrency).runIn(context, mode).throughputPerSecond();
        OperationLoop.Limits limits = WorkerPipelineScenario.pipelineLimits(context.profile());
        AckLedger ledger = PipelineRun.ledger(limits);
        try (EventBus bus = BusBench.open(context.newDirectory(name()), mode, 1)) {
            Subscription first = bus.subscription("s1");
            if (chain) {
                first.handler(BusBench.Message.class,
                        (event, ctx) -> new BusBench.Followed(event.seq(), event.sentNanos()));
                bus.subscription("next").handler(BusBench.Followed.class, (event, ctx) -> {
                    ledger.record(event.seq(), event.sentNanos(), System.nanoTime());
                    return null;
                }).config().concurrency(concurrency);
            } else {
                first.handler(BusBench.Message.class, (event, ctx) -> {
                    ledger.record(event.seq(), event.sentNanos(), System.nanoTime());
                    return null;
                });
            }
            first.config().concurrency(concurrency);
            bus.start();
            PipelineRun.Outcome outcome;
            try {
                outcome = PipelineRun.run(batch -> bus.dispatchAll(events(batch)), ledger, limits);
            } finally {
                bus.stop(Duration.ofSeconds(30));
            }
            long total = outcome.warmups() + outcome.jobs();
            long acked = bus.subscription(chain ? "next" : "s1").stats().acked();
            ScenarioResult.Builder builder = ScenarioResult.builder(name(), BusBench.GROUP, mode)
                    .throughput(outcome.jobs(), "events", outcome.elapsedNanos())
                    .requested(outcome.requested())
                    .latency(outcome.latencies(), chain ? "dispatch of the batch to the follow-up's handler"
                            : "dispatch of the batch to the handler")
                    .detail("concurrency", concurrency)
                    .detail("producerBatch", PipelineRun.BATCH);
            if (worker != null) {
                builder.detail("workerPipelinePerSecond", worker)
                        .detail("ratioToWorkerPipeline",
                                ScenarioResult.perSecond(outcome.jobs(), outcome.elapsedNanos()) / worker);
            }
            return builder.validation(outcome.validation().and(Validation.check(acked == total,
                    acked + " acknowledged of " + total))).build();
        }
    }

    private static List<Object> events(List<BenchMessage> batch) {
        List<Object> events = new ArrayList<>(batch.size());
        for (BenchMessage message : batch) {
            events.add(new BusBench.Message(message.seq(), message.sentNanos(), message.pad()));
        }
        return events;
    }
}
