package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueOptions;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.util.List;

/**
 * {@code put}: one {@link SimpleQueue#put(Object)} per job, each its own transaction, or one
 * {@link SimpleQueue#put(Object, String, EnqueueOptions)} with options (a delay; a priority and a key), each compared
 * with one raw insert per transaction and, through it, with the plain put of the same run.
 */
public final class PutScenario extends PerModeScenario {

    /** The report section of single-operation scenarios. */
    public static final String GROUP = "single-operation";

    private final String name;
    private final EnqueueOptions options;

    private PutScenario(String name, EnqueueOptions options) {
        this.name = name;
        this.options = options;
    }

    /** A plain put. */
    static PutScenario plain() {
        return new PutScenario("put", EnqueueOptions.defaults());
    }

    /** A put delayed by an hour, so that no job becomes due during the run. */
    static PutScenario delayed() {
        return new PutScenario("put-delayed", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
    }

    /** A put with a priority and a concurrency key, into a queue that therefore uses priorities. */
    static PutScenario prioritized() {
        return new PutScenario("put-prioritized", EnqueueOptions.defaults().priority(5).concurrencyKey("tenant-7"));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.insert(1));
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        OperationLoop.Limits limits = context.profile().limits(context.profile().putOperations());
        try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name()), name(), mode)) {
            OperationLoop.Timing timing = OperationLoop.run(limits,
                    i -> queue.put(BenchMessage.of(i, System.nanoTime()), null, options));
            return ScenarioResult.builder(name(), GROUP, mode)
                    .measured(timing, 1, "jobs")
                    .latency(timing.latencies(), "one put")
                    .baseline(RawWorkload.insert(1))
                    .validation(QueueChecks.counts(queue, timing.total(), 0, 0, 0))
                    .build();
        }
    }
}
