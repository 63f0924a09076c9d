package io.localqueue.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Runs the {@code smoke} profile on the embedded PostgreSQL server, in RELAXED only and without the producer/consumer
 * mix (whose child JVMs the drains exercise the same way) so that it stays short, and checks that the server's
 * conditions are reported, that every scenario and raw workload of the store ran and validated (every job
 * acknowledged exactly once), and that the server's data directory is gone afterwards. Timings are never asserted.
 */
class PostgresSmokeProfileTest {

    @TempDir
    Path directory;

    @Test
    void smokeProfileOnPostgresqlWritesValidatedReports() throws Exception {
        Path output = directory.resolve("reports");
        Path work = directory.resolve("work");
        Options options = Options.parse(new String[] {"--store", "postgresql", "--profile", "smoke",
                "--durability", "relaxed", "--only", "put,get+ack,roundtrip,worker-pipeline,multiprocess-drain",
                "--output", "reports", "--workdir", "work"}, directory);
        List<String> progress = new ArrayList<>();

        Report report = BenchmarkRun.execute(options, progress::add);

        assertThat(report.validation().passed()).as(report.validation().detail()).isTrue();
        JsonNode json = ReportWriter.mapper().readTree(Files.readString(output.resolve(ReportWriter.JSON)));
        JsonNode host = json.get("host");
        assertThat(host.get("store").asString()).isEqualTo(PostgresBenchStore.NAME);
        JsonNode server = host.get("postgresql");
        assertThat(server.get("version").asString()).startsWith("18.");
        for (String setting : EmbeddedPostgresServer.REPORTED_SETTINGS) {
            assertThat(server.get("settings").get(setting).asString()).as(setting).isNotBlank();
        }
        assertThat(server.get("settings").get("synchronous_commit").asString()).isEqualTo("on");
        assertThat(host.get("durabilityModes").get(0).asString()).contains("synchronous_commit=off");

        Set<String> seen = new HashSet<>();
        for (JsonNode result : json.get("results")) {
            String name = result.get("scenario").asString();
            assertThat(seen.add(name)).as("one result per scenario: " + name).isTrue();
            assertThat(result.get("durability").asString()).isEqualTo("RELAXED");
            assertThat(result.get("validation").get("passed").asBoolean())
                    .as(name + ": " + result.get("validation").get("detail").asString()).isTrue();
            JsonNode baseline = result.get("baseline");
            if (!baseline.isNull()) {
                assertThat(baseline.get("ratio").isNumber()).as(name + " has its ratio").isTrue();
                assertThat(result.get("details").get(Rounds.ROUND_RATIOS)).as(name + " ran in two rounds")
                        .hasSize(2);
            }
            if (result.get("group").asString().equals(RawBaseline.GROUP)) {
                assertThat(result.get("details").get("synchronousCommit").asString()).isEqualTo("off");
            }
        }
        assertThat(seen).containsExactlyInAnyOrder("insert-1", "insert-batch-10", "insert-batch-100",
                "claim+ack-2tx", "put+claim+ack-3tx", "pipeline-1p2c-batched", "put", "put-delayed",
                "put-prioritized", "putMany-1", "putMany-10",
                "putMany-100", "put-threads-1", "put-threads-4", "put-threads-16", "put-threads-64", "get+ack",
                "roundtrip", "worker-pipeline-c2", "multiprocess-drain-1C",
                "multiprocess-drain-2C", "multiprocess-drain-1ms-1C", "multiprocess-drain-1ms-2C");
        JsonNode twoConsumers = resultNamed(json.get("results"), "multiprocess-drain-2C");
        assertThat(twoConsumers.get("details").get(ConsumerDrainScenario.RATIO_TO_ONE_CONSUMER).isNumber()).isTrue();
        assertThat(twoConsumers.get("details").get("acksPerConsumer")).hasSize(2);
        assertThat(twoConsumers.get("details").get("serverCoresBusy").asDouble()).as("the server's CPU is counted")
                .isPositive();
        assertThat(resultNamed(json.get("results"), "multiprocess-drain-1ms-2C").get("details")
                .get("handlerPauseMillis").asInt()).isEqualTo(1);

        String markdown = Files.readString(output.resolve(ReportWriter.MARKDOWN));
        assertThat(markdown).contains("# localqueue benchmark: smoke profile on PostgreSQL", "| Store | PostgreSQL 18.",
                "| Server settings | synchronous_commit=on", "| Validation | all passed |", "## Raw JDBC baseline",
                "## Single operations", "## Pipelines", "## Multiple processes", "vs one consumer JVM ");
        assertThat(markdown).doesNotContain("FAILED");

        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).as("the server's data directory is deleted after the run").isEmpty();
        }
    }

    private static JsonNode resultNamed(JsonNode results, String name) {
        for (JsonNode result : results) {
            if (result.get("scenario").asString().equals(name)) {
                return result;
            }
        }
        throw new AssertionError("no result " + name);
    }
}
