package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.SimpleQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code putMany-N}: batches of N jobs, each batch one {@link SimpleQueue#putMany(List)} transaction; compared with
 * raw inserts of N rows per transaction ({@code executeBatch}, or one {@code executeUpdate} for N = 1).
 */
public final class PutManyScenario extends PerModeScenario {

    private final int batchSize;

    /**
     * Creates the scenario for one batch size.
     *
     * @param batchSize jobs per batch
     */
    public PutManyScenario(int batchSize) {
        this.batchSize = batchSize;
    }

    @Override
    public String name() {
        return "putMany-" + batchSize;
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.insert(batchSize));
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        Profile profile = context.profile();
        OperationLoop.Limits limits = profile.batchLimits(batchSize, profile.putManyRowsFor(batchSize));
        try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name()), name(), mode)) {
            OperationLoop.Timing timing = OperationLoop.run(limits, i -> queue.putMany(batch(i)));
            return ScenarioResult.builder(name(), PutScenario.GROUP, mode)
                    .measured(timing, batchSize, "rows")
                    .latency(timing.latencies(), "one putMany of " + batchSize)
                    .baseline(RawWorkload.insert(batchSize))
                    .detail("batchSize", batchSize)
                    .detail("batchesPerSecond", ScenarioResult.perSecond(timing.count(), timing.elapsedNanos()))
                    .validation(QueueChecks.counts(queue, (long) timing.total() * batchSize, 0, 0, 0))
                    .build();
        }
    }

    private List<EnqueueItem<BenchMessage>> batch(int index) {
        long now = System.nanoTime();
        List<EnqueueItem<BenchMessage>> items = new ArrayList<>(batchSize);
        for (int i = 0; i < batchSize; i++) {
            items.add(EnqueueItem.of(BenchMessage.of((long) index * batchSize + i, now)));
        }
        return items;
    }
}
