package io.localqueue.benchmark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Renders a {@link Report} as Markdown: the run's conditions, then one table per report section.
 */
public final class MarkdownRenderer {

    private static final List<String> THROUGHPUT_GROUPS = List.of(RawBaseline.GROUP, PutScenario.GROUP,
            WorkerPipelineScenario.GROUP, BusBench.GROUP, BacklogScenario.GROUP, MultiprocessScenario.GROUP);

    private static final Map<String, String> TITLES = Map.ofEntries(
            Map.entry(RawBaseline.GROUP, "Raw JDBC baseline"),
            Map.entry(PutScenario.GROUP, "Single operations"),
            Map.entry(WorkerPipelineScenario.GROUP, "Pipelines"),
            Map.entry(BusBench.GROUP, "Event bus"),
            Map.entry(BacklogScenario.GROUP, "Backlog"),
            Map.entry(ObservationScenario.GROUP, "Observation costs"),
            Map.entry(DashboardScenario.GROUP, "Dashboard reads"),
            Map.entry(WakeupScenario.GROUP, "Wake-up latency"),
            Map.entry(IdleCpuScenario.GROUP, "Idle CPU"),
            Map.entry(MultiprocessScenario.GROUP, "Multiple processes"),
            Map.entry(BenchmarkRun.FAILED_GROUP, "Failures"));

    private MarkdownRenderer() {
    }

    /**
     * Renders the report.
     *
     * @param report the report
     * @return Markdown text
     */
    public static String render(Report report) {
        StringBuilder out = new StringBuilder();
        out.append("# localqueue benchmark: ").append(report.profile()).append(" profile")
                .append(report.host().postgresql() != null ? " on PostgreSQL" : "").append("\n\n");
        conditions(report, out);
        Map<String, List<ScenarioResult>> groups = new LinkedHashMap<>();
        for (ScenarioResult result : report.results()) {
            groups.computeIfAbsent(result.group(), group -> new ArrayList<>()).add(result);
        }
        for (Map.Entry<String, List<ScenarioResult>> group : groups.entrySet()) {
            out.append("\n## ").append(TITLES.getOrDefault(group.getKey(), group.getKey())).append("\n\n");
            if (THROUGHPUT_GROUPS.contains(group.getKey())) {
                throughputTable(group.getValue(), out);
            } else if (group.getKey().equals(WakeupScenario.GROUP)) {
                wakeupTable(group.getValue(), out);
            } else if (group.getKey().equals(IdleCpuScenario.GROUP)) {
                idleTable(group.getValue(), out);
            } else if (group.getKey().equals(ObservationScenario.GROUP)) {
                observationTable(group.getValue(), out);
            } else if (group.getKey().equals(DashboardScenario.GROUP)) {
                dashboardTable(group.getValue(), out);
            } else {
                failureTable(group.getValue(), out);
            }
        }
        return out.toString();
    }

    private static void conditions(Report report, StringBuilder out) {
        HostInfo host = report.host();
        Report.LoadAverage load = report.loadAverage();
        out.append("| Condition | Value |\n|---|---|\n");
        row(out, "Started", report.startedAt());
        row(out, "Duration", String.format(Locale.ROOT, "%.0f s", report.durationSeconds()));
        row(out, "CPUs", host.cpus() + (host.cpuModel() == null ? "" : " × " + host.cpuModel()));
        if (host.memoryBytes() != null) {
            row(out, "Memory", String.format(Locale.ROOT, "%.1f GiB", host.memoryBytes() / (double) (1L << 30)));
        }
        row(out, "OS", host.os());
        row(out, "JDK", host.jdk() + ", " + host.jvm());
        PostgresServerInfo server = host.postgresql();
        if (server == null) {
            row(out, "SQLite", host.sqliteVersion() + " (sqlite-jdbc " + host.sqliteJdbcVersion() + ")");
            row(out, "Work directory filesystem", host.workDirectoryFileSystem());
        } else {
            row(out, "Store", "PostgreSQL " + server.version() + ", embedded server on this machine, reached over "
                    + "loopback; a fresh schema per scenario and per raw workload");
            List<String> settings = new ArrayList<>();
            server.settings().forEach((name, value) -> settings.add(name + "=" + value));
            row(out, "Server settings", String.join(", ", settings));
            row(out, "Data directory filesystem", server.dataDirectoryFileSystem());
        }
        row(out, "Durability modes", String.join(", ", host.durabilityModes()));
        row(out, "Load average (1 min)", String.format(Locale.ROOT, "%.2f at start, %.2f at end", load.atStart(),
                load.atEnd()));
        row(out, "Payload", "JSON of about " + BenchMessage.TARGET_BYTES + " bytes (raw baseline: "
                + BenchMessage.TARGET_BYTES + " bytes)");
        row(out, "Rounds", report.settings().rounds() + " per scenario compared with a raw limit, each right after its own "
                + "raw run; the median round is shown, with the ratio of every round in its notes");
        row(out, "Validation", report.validation().passed() ? "all passed" : "FAILED: "
                + report.validation().detail());
    }

    private static void throughputTable(List<ScenarioResult> results, StringBuilder out) {
        out.append("| Scenario | Mode | Measured | Throughput | Raw limit | Ratio | p50 | p95 | p99 | Notes | Valid |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (ScenarioResult result : results) {
            Baseline baseline = result.baseline();
            String raw = baseline == null || baseline.rawThroughputPerSecond() == null ? "—"
                    : Format.grouped(baseline.rawThroughputPerSecond()) + " (" + baseline.raw() + ")";
            String ratio = baseline == null || baseline.ratio() == null ? "—" : Format.ratio(baseline.ratio());
            String throughput = result.throughputPerSecond() == null ? "—"
                    : Format.grouped(result.throughputPerSecond()) + " " + result.unit() + "/s";
            out.append("| ").append(result.scenario())
                    .append(" | ").append(mode(result))
                    .append(" | ").append(Format.grouped(result.operations())).append(' ').append(result.unit())
                    .append(" | ").append(throughput)
                    .append(" | ").append(raw)
                    .append(" | ").append(ratio)
                    .append(latencyCells(result))
                    .append(" | ").append(notes(result))
                    .append(" | ").append(valid(result)).append(" |\n");
        }
        latencyLegend(results, out);
    }

    private static void wakeupTable(List<ScenarioResult> results, StringBuilder out) {
        out.append("| Scenario | Mode | Samples | p50 | p95 | p99 | max | put start → get, p50 / p99 | Valid |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (ScenarioResult result : results) {
            Percentiles latency = result.latency();
            Object putStart = result.details().get("putStartToGetReturned");
            String fromStart = putStart instanceof Percentiles p
                    ? Format.duration(p.p50()) + " / " + Format.duration(p.p99()) : "—";
            out.append("| ").append(result.scenario())
                    .append(" | ").append(mode(result))
                    .append(" | ").append(result.operations())
                    .append(latencyCells(result))
                    .append(" | ").append(latency == null ? "—" : Format.duration(latency.max()))
                    .append(" | ").append(fromStart)
                    .append(" | ").append(valid(result)).append(" |\n");
        }
        latencyLegend(results, out);
    }

    private static void observationTable(List<ScenarioResult> results, StringBuilder out) {
        readsTable(results, out, false);
    }

    private static void dashboardTable(List<ScenarioResult> results, StringBuilder out) {
        readsTable(results, out, true);
    }

    /** A table of reads measured call by call, with a notes column or not. */
    private static void readsTable(List<ScenarioResult> results, StringBuilder out, boolean withNotes) {
        out.append("| Read | Calls | p50 (median) | p95 | p99 | max |").append(withNotes ? " Notes |" : "")
                .append(" Valid |\n");
        out.append("|---|---:|---:|---:|---:|---:|").append(withNotes ? "---|" : "").append("---|\n");
        for (ScenarioResult result : results) {
            Percentiles latency = result.latency();
            out.append("| ").append(result.scenario())
                    .append(" | ").append(Format.grouped(result.operations()))
                    .append(latencyCells(result))
                    .append(" | ").append(latency == null ? "—" : Format.duration(latency.max()));
            if (withNotes) {
                out.append(" | ").append(notes(result));
            }
            out.append(" | ").append(valid(result)).append(" |\n");
        }
        latencyLegend(results, out);
    }

    private static void idleTable(List<ScenarioResult> results, StringBuilder out) {
        out.append("| Scenario | Idle time | Process CPU with it idle | Without it | Its share | Valid |\n");
        out.append("|---|---:|---:|---:|---:|---|\n");
        for (ScenarioResult result : results) {
            Map<String, Object> details = result.details();
            out.append("| ").append(result.scenario())
                    .append(" | ").append(details.getOrDefault("idleSeconds", "—")).append(" s")
                    .append(" | ").append(percentOf(details.get("cpuShareWith")))
                    .append(" | ").append(percentOf(details.get("cpuShareWithout")))
                    .append(" | ").append(percentOf(details.get("cpuShareOf")))
                    .append(" | ").append(valid(result)).append(" |\n");
        }
        out.append("\nCPU shares are process CPU time over wall time; 100 % is one core busy.\n");
    }

    private static void failureTable(List<ScenarioResult> results, StringBuilder out) {
        out.append("| Scenario | Error |\n|---|---|\n");
        for (ScenarioResult result : results) {
            out.append("| ").append(result.scenario()).append(" | ").append(cell(result.validation().detail()))
                    .append(" |\n");
        }
    }

    private static String latencyCells(ScenarioResult result) {
        Percentiles latency = result.latency();
        if (latency == null) {
            return " | — | — | —";
        }
        return " | " + Format.duration(latency.p50()) + " | " + Format.duration(latency.p95()) + " | "
                + Format.duration(latency.p99());
    }

    private static void latencyLegend(List<ScenarioResult> results, StringBuilder out) {
        Set<String> lines = new LinkedHashSet<>();
        for (ScenarioResult result : results) {
            if (result.latencyMeasures() != null) {
                lines.add("- " + result.scenario() + ": " + result.latencyMeasures());
            }
        }
        if (!lines.isEmpty()) {
            out.append("\nOne latency sample spans:\n\n").append(String.join("\n", lines)).append('\n');
        }
    }

    private static String notes(ScenarioResult result) {
        List<String> notes = new ArrayList<>();
        Map<String, Object> details = result.details();
        number(details, ScenarioResult.REQUESTED)
                .ifPresent(v -> notes.add("time budget reached (" + Format.grouped(v) + " asked)"));
        number(details, "ratioToSmallQueue").ifPresent(v -> notes.add("vs small queue " + Format.ratio(v)));
        number(details, ProducerThreadsScenario.RATIO).ifPresent(v -> notes.add("vs one thread in the same round "
                + Format.ratio(v)));
        number(details, "readyRowsAtStart").ifPresent(v -> notes.add(Format.grouped(v) + " ready"));
        number(details, "delayedJobsAtHead").ifPresent(v -> notes.add(Format.grouped(v) + " delayed at head"));
        number(details, "buildRowsPerSecond").ifPresent(v -> notes.add("built at " + Format.grouped(v) + " rows/s"));
        number(details, "batchesPerSecond").ifPresent(v -> notes.add(Format.grouped(v) + " batches/s"));
        number(details, "transactionsPerSecond").ifPresent(v -> notes.add(Format.grouped(v) + " tx/s"));
        number(details, Rounds.RUNS).ifPresent(v -> notes.add("median of " + Format.grouped(v) + " runs"));
        if (details.get(Rounds.ROUND_RATIOS) instanceof List<?> ratios) {
            notes.add("ratio by round " + String.join(", ", ratios.stream()
                    .map(ratio -> ratio instanceof Number number ? Format.ratio(number.doubleValue()) : "—")
                    .toList()));
        }
        number(details, "deliveriesPerSecond").ifPresent(v -> notes.add(Format.grouped(v) + " deliveries/s"));
        number(details, "ratioToReference").ifPresent(v -> notes.add("vs the reference's published figure "
                + Format.ratio(v)));
        number(details, "ratioToWorkerPipeline").ifPresent(v -> notes.add("vs the Worker pipeline in the same round "
                + Format.ratio(v)));
        number(details, "ratioToWorkerDrain").ifPresent(v -> notes.add("vs a Worker draining as many jobs in the same "
                + "round " + Format.ratio(v)));
        number(details, "ratioToSameSizeWorkerDrain").ifPresent(v -> notes.add("vs a Worker draining jobs of the "
                + "envelopes' size " + Format.ratio(v)));
        number(details, ConsumerDrainScenario.RATIO_TO_ONE_CONSUMER).ifPresent(v -> notes.add("vs one consumer JVM "
                + Format.ratio(v)));
        number(details, "ratioToFirstPage").ifPresent(v -> notes.add("vs the first page " + Format.ratio(v)));
        number(details, "pollingClients").ifPresent(v -> notes.add(Format.grouped(v) + " clients at once"));
        number(details, "callsPerSecond").ifPresent(v -> notes.add(Format.grouped(v) + " calls/s"));
        number(details, "overviewBuilds").ifPresent(v -> notes.add("overviews built: " + Format.grouped(v)));
        number(details, "callsPerOverviewBuild").ifPresent(v -> notes.add("calls per build: " + Format.grouped(v)));
        number(details, "queueCountsSeen").ifPresent(v -> notes.add("counts of the queue: " + Format.grouped(v)));
        number(details, "preloadedJobs").ifPresent(v -> notes.add(Format.grouped(v) + " jobs preloaded"));
        number(details, "workerConcurrency").ifPresent(v -> notes.add("concurrency " + Format.grouped(v)));
        number(details, "listenerConcurrency").ifPresent(v -> notes.add("concurrency " + Format.grouped(v)));
        number(details, "consumerWorkerConcurrency")
                .ifPresent(v -> notes.add("worker concurrency " + Format.grouped(v) + " per consumer"));
        number(details, "producedPerSecond").ifPresent(v -> notes.add("produced " + Format.grouped(v) + "/s"));
        number(details, "childCoresBusy").ifPresent(v -> notes.add(String.format(Locale.ROOT,
                "the processes kept %.1f cores busy", v)));
        number(details, "childCpuMicrosPerJob").ifPresent(v -> notes.add(String.format(Locale.ROOT,
                "%.0f µs of CPU per job", v)));
        number(details, "serverCoresBusy").ifPresent(v -> notes.add(String.format(Locale.ROOT,
                "the server kept %.1f cores busy", v)));
        number(details, "handlerPauseMillis").filter(v -> v > 0).ifPresent(v -> notes.add("the handler waits "
                + Format.grouped(v) + " ms per job"));
        if (details.get("acksPerConsumer") instanceof List<?> acks && acks.size() > 1) {
            notes.add("acks per consumer " + acks);
        }
        return notes.isEmpty() ? "" : String.join("; ", notes);
    }

    private static Optional<Double> number(Map<String, Object> details, String key) {
        return details.get(key) instanceof Number number ? Optional.of(number.doubleValue()) : Optional.empty();
    }

    private static String percentOf(Object value) {
        return value instanceof Number number ? Format.percent(number.doubleValue()) : "—";
    }

    private static String mode(ScenarioResult result) {
        return result.durability() == null ? "—" : result.durability().name();
    }

    private static String valid(ScenarioResult result) {
        return result.validation().passed() ? "ok" : "**FAILED**: " + cell(result.validation().detail());
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    private static void row(StringBuilder out, String name, String value) {
        out.append("| ").append(name).append(" | ").append(cell(value)).append(" |\n");
    }
}
