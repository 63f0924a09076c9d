package io.localqueue.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundsTest {

    @Test
    void aScenarioIsRepresentedByItsMedianRatioRoundWithEveryRatioKept() {
        List<List<ScenarioResult>> rounds = List.of(
                List.of(result("roundtrip", 900, 1000, true)),
                List.of(result("roundtrip", 700, 1000, true)),
                List.of(result("roundtrip", 1200, 1500, true)));

        List<ScenarioResult> folded = Rounds.foldScenario(rounds);

        assertThat(folded).hasSize(1);
        ScenarioResult median = folded.get(0);
        assertThat(median.throughputPerSecond()).as("the round whose ratio (0.8) is the median").isEqualTo(1200);
        assertThat(median.baseline().rawThroughputPerSecond()).as("its own round's raw limit").isEqualTo(1500);
        assertThat(median.details().get(Rounds.ROUND_RATIOS)).isEqualTo(List.of(0.9, 0.7, 0.8));
        assertThat(median.validation().passed()).isTrue();
    }

    @Test
    void aThreadCountIsRepresentedByItsMedianRatioToOneThreadOfTheSameRound() {
        List<List<ScenarioResult>> rounds = List.of(
                List.of(threads(1, 1000, null), threads(16, 3000, 3.0)),
                List.of(threads(1, 800, null), threads(16, 3200, 4.0)),
                List.of(threads(1, 1500, null), threads(16, 3300, 2.2)));

        List<ScenarioResult> folded = Rounds.foldScenario(rounds);

        assertThat(folded).extracting(ScenarioResult::scenario).containsExactly("put-threads-1", "put-threads-16");
        assertThat(folded.get(0).throughputPerSecond()).as("one thread: its median throughput").isEqualTo(1000);
        assertThat(folded.get(0).details()).doesNotContainKey(Rounds.ROUND_RATIOS);
        ScenarioResult sixteen = folded.get(1);
        assertThat(sixteen.throughputPerSecond()).as("the round of the median ratio, not of the median throughput")
                .isEqualTo(3000);
        assertThat(sixteen.details().get(Rounds.ROUND_RATIOS)).isEqualTo(List.of(3.0, 4.0, 2.2));
    }

    @Test
    void anEvenNumberOfRoundsKeepsTheLowerMiddleOne() {
        List<ScenarioResult> folded = Rounds.foldScenario(List.of(
                List.of(result("put", 950, 1000, true)),
                List.of(result("put", 850, 1000, true))));

        assertThat(folded.get(0).throughputPerSecond()).isEqualTo(850);
    }

    @Test
    void oneFailedRoundFailsTheFoldedResult() {
        List<ScenarioResult> folded = Rounds.foldScenario(List.of(
                List.of(result("put", 900, 1000, true)),
                List.of(result("put", 800, 1000, false)),
                List.of(result("put", 850, 1000, true))));

        assertThat(folded.get(0).validation().passed()).isFalse();
        assertThat(folded.get(0).validation().detail()).startsWith("run 2 of 3: ");
    }

    @Test
    void modesAndNamesAreFoldedSeparatelyInFirstRoundOrder() {
        List<ScenarioResult> folded = Rounds.foldScenario(List.of(
                List.of(result("a", 1, 1, true), result("b", 1, 1, true)),
                List.of(result("a", 2, 1, true), result("b", 2, 1, true))));

        assertThat(folded).extracting(ScenarioResult::scenario).containsExactly("a", "b");
    }

    @Test
    void rawRunsAreRepresentedByTheirMedianThroughput() {
        List<ScenarioResult> folded = Rounds.foldRaw(List.of(raw("insert-1", 300), raw("claim", 10),
                raw("insert-1", 100), raw("insert-1", 200)));

        assertThat(folded).extracting(ScenarioResult::scenario).containsExactly("insert-1", "claim");
        assertThat(folded.get(0).throughputPerSecond()).isEqualTo(200);
        assertThat(folded.get(0).details().get(Rounds.RUNS)).isEqualTo(3);
        assertThat(folded.get(1).details()).doesNotContainKey(Rounds.RUNS);
    }

    private static ScenarioResult result(String name, double throughput, double raw, boolean passed) {
        return ScenarioResult.builder(name, PutScenario.GROUP, DurabilityMode.RELAXED)
                .throughput((long) throughput, "jobs", 1_000_000_000L)
                .validation(Validation.check(passed, passed ? "ok" : "lost a job"))
                .build()
                .withBaseline(new Baseline("raw", raw, throughput / raw));
    }

    private static ScenarioResult threads(int count, double throughput, Double ratioToOneThread) {
        ScenarioResult.Builder result = ScenarioResult.builder("put-threads-" + count, PutScenario.GROUP,
                        DurabilityMode.RELAXED)
                .throughput((long) throughput, "jobs", 1_000_000_000L)
                .validation(Validation.check(true, "ok"));
        if (ratioToOneThread != null) {
            result.detail(ProducerThreadsScenario.RATIO, ratioToOneThread);
        }
        return result.build();
    }

    private static ScenarioResult raw(String name, double throughput) {
        return ScenarioResult.builder(name, RawBaseline.GROUP, DurabilityMode.RELAXED)
                .throughput((long) throughput, "rows", 1_000_000_000L)
                .build();
    }
}
