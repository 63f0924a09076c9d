package io.localqueue.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One benchmark run: every scenario of the profile, each right after the raw workloads it is compared with (so a
 * raw limit and the scenario compared with it run close together in time, under similar machine load), then the
 * ratios, the validation summary and the reports. A scenario compared with a raw limit runs {@link Profile#rounds()}
 * times, each round after its own raw measurement, and {@link Rounds} keeps the median round. A scenario that throws
 * is reported as a failure and the run goes on. On {@code --store postgresql} the run first starts an embedded
 * PostgreSQL server in the work directory and stops it at the end; its scenarios and raw baseline are the store's.
 */
public final class BenchmarkRun {

    /** The report section of scenarios that threw. */
    public static final String FAILED_GROUP = "failed";

    private BenchmarkRun() {
    }

    /**
     * Runs the benchmark and writes its reports.
     *
     * @param options the command line
     * @param progress where progress lines go
     * @return the report
     * @throws IOException when the work or output directory cannot be used
     */
    public static Report execute(Options options, Consumer<String> progress) throws IOException {
        return execute(options, Profile.named(options.profile()), progress);
    }

    /**
     * Runs the benchmark with sizes of the caller's instead of the named profile's, and writes its reports.
     *
     * @param options the command line, whose profile name is ignored
     * @param profile the sizes
     * @param progress where progress lines go
     * @return the report
     * @throws IOException when the work or output directory cannot be used
     */
    public static Report execute(Options options, Profile profile, Consumer<String> progress) throws IOException {
        Instant startedAt = Instant.now();
        long start = System.nanoTime();
        double loadAtStart = HostInfo.loadAverage();
        Files.createDirectories(options.workDirectory());
        Path workRoot = Files.createTempDirectory(options.workDirectory(), "run-");
        try {
            if (options.store().equals(PostgresBenchStore.NAME)) {
                return onServer(options, profile, workRoot, progress, startedAt, start, loadAtStart);
            }
            HostInfo host = HostInfo.collect(workRoot, options.modes());
            return measure(options, profile, BenchStore.Sqlite.INSTANCE, host, workRoot, progress, startedAt, start,
                    loadAtStart);
        } finally {
            if (!options.keepWorkDirectory()) {
                deleteRecursively(workRoot);
            }
        }
    }

    /** Starts the embedded PostgreSQL server in the work directory, runs on it, and stops it. */
    private static Report onServer(Options options, Profile profile, Path workRoot, Consumer<String> progress,
                                   Instant startedAt, long start, double loadAtStart) throws IOException {
        progress.accept("starting the embedded PostgreSQL server");
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(workRoot.resolve("postgresql-data"))) {
            PostgresServerInfo info;
            try {
                info = server.describe();
            } catch (SQLException failure) {
                throw new IOException("the embedded PostgreSQL server cannot be read: " + failure.getMessage(),
                        failure);
            }
            progress.accept("PostgreSQL " + info.version() + ", " + info.settings());
            HostInfo host = HostInfo.collect(workRoot, options.modes(), info);
            return measure(options, profile, new PostgresBenchStore(server.url()), host, workRoot, progress,
                    startedAt, start, loadAtStart);
        }
    }

    private static Report measure(Options options, Profile profile, BenchStore store, HostInfo host, Path workRoot,
                                  Consumer<String> progress, Instant startedAt, long start, double loadAtStart)
            throws IOException {
        RunContext context = new RunContext(profile, options.modes(), store, workRoot, progress);
        List<ScenarioResult> raw = new ArrayList<>();
        List<ScenarioResult> measured = new ArrayList<>();
        Set<RawWorkload> done = new HashSet<>();
        for (Scenario scenario : Scenarios.of(profile, options.only(), store.name())) {
            int rounds = scenario.repeated() ? profile.rounds() : 1;
            List<List<ScenarioResult>> roundResults = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                if (rounds > 1) {
                    context.progress(scenario.name() + ": round " + round + " of " + rounds);
                }
                List<RawWorkload> needed = scenario.repeated() ? scenario.baselines()
                        : scenario.baselines().stream().filter(done::add).toList();
                if (!needed.isEmpty()) {
                    raw.addAll(runSafely(store.rawBaseline(needed), context));
                }
                roundResults.add(withRatios(runSafely(scenario, context), raw));
            }
            measured.addAll(Rounds.foldScenario(roundResults));
        }
        List<ScenarioResult> results = new ArrayList<>(Rounds.foldRaw(raw));
        results.addAll(measured);
        Report report = new Report(Report.SCHEMA_VERSION, profile.name(), startedAt.toString(),
                Instant.now().toString(), (System.nanoTime() - start) / 1e9, options.arguments(), host,
                new Report.LoadAverage(loadAtStart, HostInfo.loadAverage()), profile, results,
                summarize(results));
        ReportWriter.write(report, options.output());
        return report;
    }

    private static List<ScenarioResult> runSafely(Scenario scenario, RunContext context) {
        long start = System.nanoTime();
        try {
            List<ScenarioResult> results = scenario.run(context);
            context.progress(String.format(Locale.ROOT, "%s took %.1f s", scenario.name(),
                    (System.nanoTime() - start) / 1e9));
            return results;
        } catch (Exception | AssertionError failure) {
            context.progress(scenario.name() + " FAILED: " + failure);
            return List.of(ScenarioResult.builder(scenario.name(), FAILED_GROUP, null)
                    .validation(Validation.failed(failure.toString()))
                    .build());
        }
    }

    /**
     * Fills in each scenario's raw limit in the same durability mode, and its ratio to it.
     *
     * @param results the scenario's results
     * @param rawRuns the raw results so far, in run order; the latest run of a workload is its limit
     * @return the results with their baselines filled in
     */
    static List<ScenarioResult> withRatios(List<ScenarioResult> results, List<ScenarioResult> rawRuns) {
        Map<String, ScenarioResult> raw = new HashMap<>();
        for (ScenarioResult result : rawRuns) {
            raw.put(result.scenario() + "/" + result.durability(), result);
        }
        List<ScenarioResult> filled = new ArrayList<>(results.size());
        for (ScenarioResult result : results) {
            Baseline baseline = result.baseline();
            if (baseline == null) {
                filled.add(result);
                continue;
            }
            ScenarioResult limit = raw.get(baseline.raw() + "/" + result.durability());
            Double rawThroughput = limit == null || !limit.validation().passed() ? null : limit.throughputPerSecond();
            Double ratio = rawThroughput == null || rawThroughput <= 0 || result.throughputPerSecond() == null ? null
                    : result.throughputPerSecond() / rawThroughput;
            filled.add(result.withBaseline(new Baseline(baseline.raw(), rawThroughput, ratio)));
        }
        return filled;
    }

    private static Validation summarize(List<ScenarioResult> results) {
        List<String> failed = new ArrayList<>();
        for (ScenarioResult result : results) {
            if (!result.validation().passed()) {
                failed.add(result.scenario() + (result.durability() == null ? "" : " [" + result.durability() + "]")
                        + ": " + result.validation().detail());
            }
        }
        return failed.isEmpty() ? Validation.passed(results.size() + " results validated")
                : Validation.failed(String.join("; ", failed));
    }

    /** Deletes {@code root} and everything below it, if it exists. */
    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
