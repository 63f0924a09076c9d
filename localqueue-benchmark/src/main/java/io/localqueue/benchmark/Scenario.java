package io.localqueue.benchmark;

import java.util.List;

/**
 * One thing the benchmark measures. A scenario sets up its own queue directory, warms up, measures, validates what
 * it did, and names the raw JDBC workloads its results are compared with.
 */
public interface Scenario {

    /**
     * Returns the scenario's name (the base of its result names).
     *
     * @return a short name
     */
    String name();

    /**
     * Returns the raw workloads this scenario's results are compared with; the run measures each one once per
     * durability mode, just before the first scenario that needs it.
     *
     * @return the raw workloads, possibly empty
     */
    default List<RawWorkload> baselines() {
        return List.of();
    }

    /**
     * Runs the scenario in every durability mode of the run.
     *
     * @param context the run's sizes, modes and directories
     * @return one result per measured region
     * @throws Exception when the scenario cannot complete
     */
    List<ScenarioResult> run(RunContext context) throws Exception;
}
