package io.localqueue.benchmark;

import java.util.List;

/**
 * Everything one run measured, as written to {@code report.json} and rendered to {@code report.md}.
 *
 * @param schemaVersion the layout version of this report, {@value #SCHEMA_VERSION}
 * @param profile the profile name
 * @param startedAt when the run started, ISO-8601 UTC
 * @param finishedAt when it finished, ISO-8601 UTC
 * @param durationSeconds how long it took
 * @param arguments the command-line arguments
 * @param host the conditions
 * @param loadAverage the system load at the start and the end
 * @param settings the profile's sizes
 * @param results every measured region, raw baseline first
 * @param validation passed only when every result's validation passed
 */
public record Report(int schemaVersion, String profile, String startedAt, String finishedAt, double durationSeconds,
                     List<String> arguments, HostInfo host, LoadAverage loadAverage, Profile settings,
                     List<ScenarioResult> results, Validation validation) {

    /** The current layout version of reports. */
    public static final int SCHEMA_VERSION = 1;

    /**
     * The one-minute system load average around the run; other processes on the machine skew every figure.
     *
     * @param atStart before the first scenario
     * @param atEnd after the last
     */
    public record LoadAverage(double atStart, double atEnd) {
    }
}
