package io.localqueue.benchmark;

import java.util.Locale;

/**
 * Runs the localqueue benchmark from the command line and writes {@code report.json} and {@code report.md}.
 *
 * <pre>
 * ./mvnw -q -pl localqueue-benchmark -am -DskipTests package exec:java \
 *     -Dexec.args="--profile standard --output target/benchmarks"
 * ./mvnw -q -pl localqueue-benchmark -am -DskipTests package exec:java \
 *     -Dexec.args="--store postgresql --profile standard --output target/benchmarks-postgresql"
 * </pre>
 *
 * Fails (a non-zero exit, or a failed Maven build) when any scenario's validation fails.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args see {@link Options#USAGE}
     * @throws Exception when the run cannot complete or a validation failed
     */
    public static void main(String[] args) throws Exception {
        if (Options.wantsHelp(args)) {
            System.out.println(Options.USAGE);
            return;
        }
        Options options = Options.parse(args, Options.baseDirectory());
        System.out.println("localqueue benchmark: profile " + options.profile() + ", store " + options.store()
                + ", modes " + options.modes());
        Report report = BenchmarkRun.execute(options, line -> System.out.println("  " + line));
        System.out.printf(Locale.ROOT, "Finished in %.0f s; reports in %s%n", report.durationSeconds(),
                options.output());
        if (!report.validation().passed()) {
            throw new IllegalStateException("benchmark validation failed: " + report.validation().detail());
        }
        System.out.println("Validation: " + report.validation().detail());
    }
}
