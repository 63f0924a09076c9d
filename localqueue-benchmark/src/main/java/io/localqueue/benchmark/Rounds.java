package io.localqueue.benchmark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Folds repeated measurements into one result each. A repeated scenario's rounds are compared with the raw limits
 * measured just before them, round by round (or, without one, with another measurement of the same round, as a thread
 * count with one thread), and the round with the median ratio represents the scenario (its
 * throughput, latencies and raw limit all come from that one round, so they stay consistent); every round's ratio is
 * kept as a detail. A raw workload measured several times is represented by its median-throughput run. Any failed
 * round fails the folded result.
 */
final class Rounds {

    /** Detail: the ratio to the raw limit of every round, in round order. */
    static final String ROUND_RATIOS = "roundRatios";

    /** Detail: how many runs a raw result was chosen from. */
    static final String RUNS = "runs";

    private Rounds() {
    }

    /**
     * Folds the rounds of one scenario, whose results already carry their round's ratios.
     *
     * @param rounds each round's results, in round order
     * @return one result per scenario name and durability mode, in first-round order
     */
    static List<ScenarioResult> foldScenario(List<List<ScenarioResult>> rounds) {
        List<ScenarioResult> folded = new ArrayList<>();
        for (List<ScenarioResult> runs : byNameAndMode(rounds).values()) {
            if (runs.size() == 1) {
                folded.add(runs.get(0));
                continue;
            }
            List<Double> ratios = runs.stream().map(Rounds::ratio).toList();
            ScenarioResult median = median(runs, Comparator.comparingDouble(
                    result -> ratio(result) != null ? ratio(result) : throughput(result)));
            if (ratios.stream().allMatch(ratio -> ratio != null)) {
                median = median.withDetail(ROUND_RATIOS, ratios);
            }
            folded.add(failIfAnyFailed(median, runs));
        }
        return folded;
    }

    /**
     * Folds every run of the raw workloads.
     *
     * @param runs the raw results of the whole run, in run order
     * @return one result per workload and durability mode, in first-run order
     */
    static List<ScenarioResult> foldRaw(List<ScenarioResult> runs) {
        List<ScenarioResult> folded = new ArrayList<>();
        for (List<ScenarioResult> same : byNameAndMode(List.of(runs)).values()) {
            if (same.size() == 1) {
                folded.add(same.get(0));
                continue;
            }
            ScenarioResult median = median(same, Comparator.comparingDouble(Rounds::throughput));
            folded.add(failIfAnyFailed(median.withDetail(RUNS, same.size()), same));
        }
        return folded;
    }

    private static Map<String, List<ScenarioResult>> byNameAndMode(List<List<ScenarioResult>> rounds) {
        Map<String, List<ScenarioResult>> grouped = new LinkedHashMap<>();
        for (List<ScenarioResult> round : rounds) {
            for (ScenarioResult result : round) {
                grouped.computeIfAbsent(result.scenario() + "/" + result.durability(), key -> new ArrayList<>())
                        .add(result);
            }
        }
        return grouped;
    }

    /** The lower median: the middle one of an odd count, the lower middle one of an even count. */
    private static ScenarioResult median(List<ScenarioResult> runs, Comparator<ScenarioResult> order) {
        List<Integer> sorted = IntStream.range(0, runs.size()).boxed()
                .sorted(Comparator.comparing(runs::get, order)).toList();
        return runs.get(sorted.get((runs.size() - 1) / 2));
    }

    private static ScenarioResult failIfAnyFailed(ScenarioResult chosen, List<ScenarioResult> runs) {
        for (int i = 0; i < runs.size(); i++) {
            Validation validation = runs.get(i).validation();
            if (!validation.passed()) {
                return chosen.withValidation(Validation.failed("run " + (i + 1) + " of " + runs.size() + ": "
                        + validation.detail()));
            }
        }
        return chosen;
    }

    /**
     * A round's ratio: to its raw limit or, for a scenario without one, to another measurement of the same round (a
     * thread count's throughput over one thread's).
     */
    private static Double ratio(ScenarioResult result) {
        if (result.baseline() != null) {
            return result.baseline().ratio();
        }
        return result.details().get(ProducerThreadsScenario.RATIO) instanceof Number inRound
                ? inRound.doubleValue() : null;
    }

    private static double throughput(ScenarioResult result) {
        return result.throughputPerSecond() == null ? 0 : result.throughputPerSecond();
    }
}
