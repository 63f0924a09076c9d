package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.util.List;

/**
 * {@code put}: one {@link SimpleQueue#put(Object)} per job, each its own transaction; compared with one raw insert
 * per transaction.
 */
public final class PutScenario extends PerModeScenario {

    /** The report section of single-operation scenarios. */
    public static final String GROUP = "single-operation";

    @Override
    public String name() {
        return "put";
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
                    i -> queue.put(BenchMessage.of(i, System.nanoTime())));
            return ScenarioResult.builder(name(), GROUP, mode)
                    .measured(timing, 1, "jobs")
                    .latency(timing.latencies(), "one put")
                    .baseline(RawWorkload.insert(1))
                    .validation(QueueChecks.counts(queue, timing.total(), 0, 0, 0))
                    .build();
        }
    }
}
