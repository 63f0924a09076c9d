package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.bus.EventBus;

/**
 * {@code bus-dispatch-f1[-identity]}: repeated {@link EventBus#dispatch(Object)}, one transaction per event, fanned
 * out to one subscription.
 */
public final class BusDispatchScenario extends PerModeScenario {

    private final boolean identity;

    /**
     * Creates the scenario.
     *
     * @param identity whether events carry a durable identity
     */
    public BusDispatchScenario(boolean identity) {
        this.identity = identity;
    }

    @Override
    public String name() {
        return "bus-dispatch-f1" + (identity ? "-identity" : "");
    }

    @Override
    public boolean repeated() {
        return true;
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        OperationLoop.Limits limits = context.profile().limits(context.profile().busDispatches());
        try (EventBus bus = BusBench.open(context.newDirectory(name()), mode, 1)) {
            OperationLoop.Timing timing = OperationLoop.run(limits,
                    i -> bus.dispatch(BusBench.event(identity, i, System.nanoTime())));
            ScenarioResult.Builder builder = ScenarioResult.builder(name(), BusBench.GROUP, mode)
                    .measured(timing, 1, "events")
                    .latency(timing.latencies(), "one dispatch");
            if (!identity) {
                builder.detail("referencePerSecond", BusBench.REFERENCE_DISPATCH_F1)
                        .detail("ratioToReference", ScenarioResult.perSecond(timing.count(), timing.elapsedNanos())
                                / BusBench.REFERENCE_DISPATCH_F1);
            }
            long stored = bus.subscription("s1").stats().ready();
            return builder.validation(Validation.check(stored == timing.total(),
                    stored + " deliveries for " + timing.total() + " dispatches")).build();
        }
    }
}
