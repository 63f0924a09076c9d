package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario measured separately, on a fresh queue directory, in each durability mode.
 */
public abstract class PerModeScenario implements Scenario {

    @Override
    public final List<ScenarioResult> run(RunContext context) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        for (DurabilityMode mode : context.modes()) {
            context.progress(name() + " [" + mode + "]");
            results.add(runIn(context, mode));
        }
        return results;
    }

    /**
     * Runs the scenario once.
     *
     * @param context the run
     * @param mode the durability mode of every queue the scenario opens
     * @return the result
     * @throws Exception when the scenario cannot complete
     */
    protected abstract ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception;
}
