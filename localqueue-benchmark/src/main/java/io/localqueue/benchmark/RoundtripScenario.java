package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.util.List;

/**
 * {@code roundtrip}: {@code put}, {@code getNowait} and {@code ack} of one job after another on an empty queue;
 * compared with raw insert, claim and ack transactions.
 */
public final class RoundtripScenario extends PerModeScenario {

    @Override
    public String name() {
        return "roundtrip";
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.PUT_CLAIM_ACK);
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        OperationLoop.Limits limits = context.profile().limits(context.profile().roundtripOperations());
        try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name()), name(), mode)) {
            OperationLoop.Timing timing = OperationLoop.run(limits, i -> {
                queue.put(BenchMessage.of(i, System.nanoTime()));
                queue.ack(queue.getNowait());
            });
            return ScenarioResult.builder(name(), PutScenario.GROUP, mode)
                    .measured(timing, 1, "jobs")
                    .latency(timing.latencies(), "one put + getNowait + ack")
                    .baseline(RawWorkload.PUT_CLAIM_ACK)
                    .validation(QueueChecks.counts(queue, 0, 0, timing.total(), 0))
                    .build();
        }
    }
}
