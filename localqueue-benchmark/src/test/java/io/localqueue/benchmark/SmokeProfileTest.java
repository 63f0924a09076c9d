package io.localqueue.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Runs the {@code smoke} profile end to end, as CI does, and checks the reports' structure and every validation.
 * Timings are never asserted: this proves the harness works, not how fast the engine is.
 */
class SmokeProfileTest {

    @TempDir
    Path directory;

    @Test
    void smokeProfileWritesValidatedReports() throws Exception {
        Path output = directory.resolve("reports");
        Path work = directory.resolve("work");
        Options options = Options.parse(new String[] {"--profile", "smoke", "--output", "reports",
                "--workdir", "work"}, directory);
        List<String> progress = new ArrayList<>();

        Report report = BenchmarkRun.execute(options, progress::add);

        assertThat(report.validation().passed()).as(report.validation().detail()).isTrue();
        JsonNode json = ReportWriter.mapper().readTree(Files.readString(output.resolve(ReportWriter.JSON)));
        assertThat(json.get("schemaVersion").asInt()).isEqualTo(Report.SCHEMA_VERSION);
        assertThat(json.get("profile").asString()).isEqualTo("smoke");
        assertThat(json.get("validation").get("passed").asBoolean()).isTrue();
        assertHost(json.get("host"));
        assertResults(json.get("results"));

        String markdown = Files.readString(output.resolve(ReportWriter.MARKDOWN));
        assertThat(markdown).contains("# localqueue benchmark: smoke profile", "| Validation | all passed |",
                "## Raw JDBC baseline", "## Single operations", "## Pipelines", "## Backlog", "## Observation costs",
                "## Dashboard reads", "## Wake-up latency", "## Idle CPU", "## Multiple processes",
                "| Rounds | 2 per scenario", "ratio by round ", "vs the first page ");
        assertThat(markdown).doesNotContain("FAILED");

        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).as("queue files are deleted after the run").isEmpty();
        }
    }

    private static void assertHost(JsonNode host) {
        assertThat(host.get("cpus").asInt()).isPositive();
        assertThat(host.get("jdk").asString()).isNotBlank();
        assertThat(host.get("sqliteVersion").asString()).matches("3\\.\\d+\\.\\d+");
        assertThat(host.get("sqliteJdbcVersion").asString()).isNotBlank();
        assertThat(host.get("workDirectoryFileSystem").asString()).isNotBlank();
        assertThat(host.get("durabilityModes")).hasSize(2);
    }

    private static void assertResults(JsonNode results) {
        Set<String> seen = new HashSet<>();
        for (JsonNode result : results) {
            String name = result.get("scenario").asString();
            String mode = result.get("durability").isNull() ? "-" : result.get("durability").asString();
            assertThat(seen.add(name + "/" + mode)).as("one result per scenario and mode: " + name).isTrue();
            assertThat(result.get("validation").get("passed").asBoolean())
                    .as(name + " [" + mode + "]: " + result.get("validation").get("detail").asString()).isTrue();
            assertThat(result.get("group").asString()).isNotEqualTo(BenchmarkRun.FAILED_GROUP);
            JsonNode latency = result.get("latency");
            if (!latency.isNull()) {
                assertThat(latency.get("p50").asLong()).isLessThanOrEqualTo(latency.get("p95").asLong());
                assertThat(latency.get("p95").asLong()).isLessThanOrEqualTo(latency.get("p99").asLong());
                assertThat(latency.get("p99").asLong()).isLessThanOrEqualTo(latency.get("max").asLong());
            }
            JsonNode baseline = result.get("baseline");
            if (!baseline.isNull()) {
                assertThat(baseline.get("rawThroughputPerSecond").isNumber()).as(name + " has its raw limit").isTrue();
                assertThat(baseline.get("ratio").isNumber()).as(name + " has its ratio").isTrue();
                if (!name.startsWith("backlog")) {
                    assertThat(result.get("details").get(Rounds.ROUND_RATIOS)).as(name + " ran in two rounds")
                            .hasSize(2);
                }
            }
            if (name.startsWith("multiprocess-")) {
                assertThat(result.get("details").get("childCpuMicrosPerJob").asDouble())
                        .as(name + " measured its processes' CPU").isPositive();
            }
            if (name.equals("insert-1")) {
                assertThat(result.get("details").get(Rounds.RUNS).asInt())
                        .as("the three puts and putMany-1 each measure insert-1 in both rounds").isEqualTo(8);
            }
        }
        List<String> expected = new ArrayList<>();
        for (DurabilityMode mode : DurabilityMode.values()) {
            for (String name : List.of("insert-1", "insert-batch-10", "insert-batch-100", "claim+ack-2tx",
                    "put+claim+ack-3tx", "pipeline-1p2c-batched", "put", "put-delayed", "put-prioritized",
                    "putMany-1", "putMany-10", "putMany-100", "put-threads-1", "put-threads-4", "put-threads-16",
                    "put-threads-64", "get+ack", "roundtrip", "worker-pipeline-c2", "listener-pipeline-c2", "backlog-small-200", "backlog-1k", "backlog-1k-priorities",
                    "backlog-1k-delayed-50", "retention-claims-quiet", "retention-claims-during",
                    "limits-plain-worker", "limits-max-concurrent-worker", "limits-per-key-100-worker",
                    "limits-rate-worker", "limits-per-key-100-full-worker", "limits-plain", "limits-max-concurrent",
                    "limits-per-key-100", "limits-rate",
                    "wakeup-in-process", "wakeup-cross-process",
                    "lateness-in-process", "lateness-cross-process",
                    "multiprocess-2P/2C", "bus-ingest-b100-f1", "bus-ingest-b1000-f1", "bus-ingest-b10000-f1",
                    "bus-ingest-b1000-f5", "bus-ingest-b1000-f1-identity", "bus-ingest-b1000-f5-identity",
                    "bus-dispatch-f1", "bus-dispatch-f1-identity", "bus-dispatch-threads-1", "bus-dispatch-threads-4",
                    "bus-dispatch-threads-16", "bus-dispatch-threads-64", "bus-drain-c4", "bus-pipeline-c4", "bus-chain-c4",
                    "bus-execute-csv")) {
                expected.add(name + "/" + mode);
            }
        }
        expected.add("idle-worker-cpu/-");
        expected.add("idle-recurring-100-cpu/-");
        for (String read : List.of("stats", "diagnostics", "stats-cached", "diagnostics-cached", "health", "gauge",
                "endpoint")) {
            expected.add("observe-1k-" + read + "/-");
        }
        for (String read : List.of("overview", "overview-rebuilt", "ready-first-page", "ready-deep-page", "dead-page",
                "job", "overview-10-pages")) {
            expected.add("dashboard-1k-" + read + "/-");
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
    }
}
