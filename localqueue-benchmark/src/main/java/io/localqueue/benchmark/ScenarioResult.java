package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One measured region of one scenario in one durability mode: throughput as a single interval from the start to the
 * end of the region, latencies as nearest-rank percentiles, the raw limit it is compared with, and its validation.
 *
 * @param scenario the scenario name, such as {@code putMany-100}
 * @param group the report section, such as {@code single-operation} or {@code raw-jdbc}
 * @param durability the durability mode, or null when the scenario does not depend on it
 * @param unit what {@code operations} counts: jobs, rows or samples
 * @param operations how many units the measured region processed
 * @param elapsedNanos the measured region's length, or 0 when the scenario measures no interval
 * @param throughputPerSecond {@code operations} per second over the region, or null when not a throughput scenario
 * @param latency latency percentiles, or null when none were recorded
 * @param latencyMeasures what one latency sample spans
 * @param baseline the raw workload this scenario is compared with, or null when there is none
 * @param validation whether the work was done correctly
 * @param details scenario-specific facts (sizes, secondary rates, comparisons)
 */
public record ScenarioResult(String scenario, String group, @Nullable DurabilityMode durability, String unit,
                             long operations, long elapsedNanos, @Nullable Double throughputPerSecond,
                             @Nullable Percentiles latency, @Nullable String latencyMeasures,
                             @Nullable Baseline baseline, Validation validation, Map<String, Object> details) {

    /**
     * Starts a result.
     *
     * @param scenario the scenario name
     * @param group the report section
     * @param durability the durability mode, or null
     * @return a builder
     */
    public static Builder builder(String scenario, String group, @Nullable DurabilityMode durability) {
        return new Builder(scenario, group, durability);
    }

    /**
     * Returns a copy compared with its raw limit.
     *
     * @param filled the baseline with its figures
     * @return the copy
     */
    public ScenarioResult withBaseline(Baseline filled) {
        return new ScenarioResult(scenario, group, durability, unit, operations, elapsedNanos, throughputPerSecond,
                latency, latencyMeasures, filled, validation, details);
    }

    /**
     * Returns a copy with one more detail.
     *
     * @param key the detail's name
     * @param value its value
     * @return the copy
     */
    public ScenarioResult withDetail(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(details);
        more.put(key, value);
        return new ScenarioResult(scenario, group, durability, unit, operations, elapsedNanos, throughputPerSecond,
                latency, latencyMeasures, baseline, validation, Collections.unmodifiableMap(more));
    }

    /**
     * Returns a copy with another validation.
     *
     * @param replaced the validation
     * @return the copy
     */
    public ScenarioResult withValidation(Validation replaced) {
        return new ScenarioResult(scenario, group, durability, unit, operations, elapsedNanos, throughputPerSecond,
                latency, latencyMeasures, baseline, replaced, details);
    }

    /**
     * Computes a rate over an interval.
     *
     * @param operations how many units
     * @param elapsedNanos the interval
     * @return units per second
     */
    public static double perSecond(long operations, long elapsedNanos) {
        return elapsedNanos <= 0 ? 0 : operations * 1e9 / elapsedNanos;
    }

    /** The detail naming how many units were asked for, present only when the time budget cut a region short. */
    public static final String REQUESTED = "requestedOperations";

    /** Assembles a {@link ScenarioResult}. */
    public static final class Builder {
        private final String scenario;
        private final String group;
        private final @Nullable DurabilityMode durability;
        private String unit = "jobs";
        private long operations;
        private long elapsedNanos;
        private @Nullable Double throughput;
        private @Nullable Percentiles latency;
        private @Nullable String latencyMeasures;
        private @Nullable Baseline baseline;
        private Validation validation = Validation.passed("nothing to check");
        private final Map<String, Object> details = new LinkedHashMap<>();

        private Builder(String scenario, String group, @Nullable DurabilityMode durability) {
            this.scenario = scenario;
            this.group = group;
            this.durability = durability;
        }

        /**
         * Records a throughput interval.
         *
         * @param operations how many units the region processed
         * @param unit what a unit is
         * @param elapsedNanos the region's length
         * @return this builder
         */
        public Builder throughput(long operations, String unit, long elapsedNanos) {
            this.operations = operations;
            this.unit = unit;
            this.elapsedNanos = elapsedNanos;
            this.throughput = perSecond(operations, elapsedNanos);
            return this;
        }

        /**
         * Records the throughput of a measured loop, and notes when its time budget cut it short.
         *
         * @param timing the loop's timing
         * @param unitsPerOperation units (rows, jobs) per loop operation
         * @param unit what a unit is
         * @return this builder
         */
        public Builder measured(OperationLoop.Timing timing, int unitsPerOperation, String unit) {
            throughput((long) timing.count() * unitsPerOperation, unit, timing.elapsedNanos());
            return requested((long) timing.requested() * unitsPerOperation);
        }

        /**
         * Records how many units were asked for; when fewer ran, the time budget cut the region short and the
         * result says so.
         *
         * @param requested the units asked for
         * @return this builder
         */
        public Builder requested(long requested) {
            if (operations < requested) {
                details.put(REQUESTED, requested);
            }
            return this;
        }

        /**
         * Records a count without an interval, for latency-only scenarios.
         *
         * @param operations how many units
         * @param unit what a unit is
         * @return this builder
         */
        public Builder count(long operations, String unit) {
            this.operations = operations;
            this.unit = unit;
            return this;
        }

        /**
         * Records latency samples.
         *
         * @param samples latencies in nanoseconds
         * @param measures what one sample spans
         * @return this builder
         */
        public Builder latency(long[] samples, String measures) {
            this.latency = Percentiles.of(samples);
            this.latencyMeasures = measures;
            return this;
        }

        /**
         * Names the raw workload this result is compared with.
         *
         * @param raw the raw workload
         * @return this builder
         */
        public Builder baseline(RawWorkload raw) {
            this.baseline = Baseline.of(raw.name());
            return this;
        }

        /**
         * Sets the validation.
         *
         * @param validation the outcome of the checks
         * @return this builder
         */
        public Builder validation(Validation validation) {
            this.validation = validation;
            return this;
        }

        /**
         * Adds a scenario-specific fact.
         *
         * @param key a camelCase name
         * @param value a number, string or boolean
         * @return this builder
         */
        public Builder detail(String key, Object value) {
            details.put(key, value);
            return this;
        }

        /**
         * Builds the result.
         *
         * @return the result
         */
        public ScenarioResult build() {
            return new ScenarioResult(scenario, group, durability, unit, operations, elapsedNanos, throughput,
                    latency, latencyMeasures, baseline, validation, Collections.unmodifiableMap(details));
        }
    }
}
