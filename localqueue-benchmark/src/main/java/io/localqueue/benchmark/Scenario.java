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
     * Returns the raw workloads this scenario's results are compared with; the run measures them in every durability
     * mode just before the scenario (in every round, when it is {@linkplain #repeated() repeated}).
     *
     * @return the raw workloads, possibly empty
     */
    default List<RawWorkload> baselines() {
        return List.of();
    }

    /**
     * Returns whether the run repeats this scenario for {@link Profile#rounds()} rounds, each right after a fresh
     * measurement of its raw workloads; true for every scenario compared with a raw limit unless it overrides this.
     *
     * @return true to repeat it
     */
    default boolean repeated() {
        return !baselines().isEmpty();
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
