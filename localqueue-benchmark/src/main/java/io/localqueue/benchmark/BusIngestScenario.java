package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.IngestionResult;
import io.localqueue.bus.SequenceSource;
import io.localqueue.bus.SourceDefinition;
import java.util.List;
import java.util.stream.LongStream;

/**
 * {@code bus-ingest-bN-fF[-identity]}: one checkpointed ingestion of the profile's bus rows in batches of N, each
 * event fanned out to F subscriptions, with or without a durable identity; after a warm-up ingestion of its own.
 */
public final class BusIngestScenario extends PerModeScenario {

    private final int batchSize;
    private final int fanout;
    private final boolean identity;

    /**
     * Creates the scenario.
     *
     * @param batchSize source items per transaction
     * @param fanout subscriptions per event
     * @param identity whether events carry a durable identity
     */
    public BusIngestScenario(int batchSize, int fanout, boolean identity) {
        this.batchSize = batchSize;
        this.fanout = fanout;
        this.identity = identity;
    }

    @Override
    public String name() {
        return "bus-ingest-b" + batchSize + "-f" + fanout + (identity ? "-identity" : "");
    }

    @Override
    public boolean repeated() {
        return true;
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        int rows = context.profile().busRows();
        try (EventBus bus = BusBench.open(context.newDirectory(name()), mode, fanout)) {
            ingest(bus, "warm-up", 0, Math.max(batchSize, rows / 10));
            IngestionResult result = ingest(bus, "measured", 1_000_000_000L, rows);
            double items = ScenarioResult.perSecond(result.itemsRead(), result.elapsed().toNanos());
            double reference = reference();
            ScenarioResult.Builder builder = ScenarioResult.builder(name(), BusBench.GROUP, mode)
                    .throughput(result.itemsRead(), "items", result.elapsed().toNanos())
                    .detail("batchSize", batchSize)
                    .detail("fanout", fanout)
                    .detail("identity", identity)
                    .detail("deliveriesPerSecond", items * fanout)
                    .detail("batchesCommitted", result.batchesCommitted());
            if (reference > 0) {
                builder.detail("referencePerSecond", reference)
                        .detail("ratioToReference", (fanout == 5 ? items * fanout : items) / reference);
            }
            long expected = (long) (rows + Math.max(batchSize, rows / 10)) * fanout;
            return builder.validation(Validation.check(result.deliveriesInserted() == (long) rows * fanout
                            && bus.subscription("s1").stats().ready() * fanout == expected,
                    result.deliveriesInserted() + " deliveries inserted of " + (long) rows * fanout)).build();
        }
    }

    private IngestionResult ingest(EventBus bus, String checkpoint, long firstSeq, int rows) {
        List<Long> seqs = LongStream.range(firstSeq, firstSeq + rows).boxed().toList();
        SourceDefinition<Long> source = bus.source(SequenceSource.of(seqs, checkpoint), checkpoint,
                seq -> BusBench.event(identity, seq, System.nanoTime()));
        source.config().batchSize(batchSize);
        return source.ingest();
    }

    /** The reference's figure for this shape, or 0 when it publishes none. */
    private double reference() {
        if (batchSize != 1_000) {
            return 0;
        }
        if (fanout == 1) {
            return identity ? BusBench.REFERENCE_INGEST_IDENTITY_F1 : BusBench.REFERENCE_INGEST_F1;
        }
        return fanout == 5 && !identity ? BusBench.REFERENCE_INGEST_F5_DELIVERIES : 0;
    }
}
