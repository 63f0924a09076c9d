package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.util.List;

/**
 * {@code get+ack}: on a queue preloaded outside the measured region, one {@link SimpleQueue#getNowait()} and one
 * {@link SimpleQueue#ack(Job)} per job; compared with a raw claim transaction plus a raw ack transaction.
 */
public final class GetAckScenario extends PerModeScenario {

    @Override
    public String name() {
        return "get+ack";
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.CLAIM_ACK);
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        OperationLoop.Limits limits = context.profile().limits(context.profile().getAckOperations());
        int preloaded = limits.warmupOperations() + limits.operations();
        try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name()), name(), mode)) {
            RunContext.preload(queue, preloaded);
            OperationLoop.Timing timing = OperationLoop.run(limits, i -> queue.ack(queue.getNowait()));
            return ScenarioResult.builder(name(), PutScenario.GROUP, mode)
                    .measured(timing, 1, "jobs")
                    .latency(timing.latencies(), "one getNowait + ack")
                    .baseline(RawWorkload.CLAIM_ACK)
                    .validation(QueueChecks.counts(queue, preloaded - timing.total(), 0, timing.total(), 0))
                    .build();
        }
    }
}
