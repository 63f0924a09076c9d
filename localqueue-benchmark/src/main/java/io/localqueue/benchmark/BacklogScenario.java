package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Claim+ack ({@code getNowait} + {@code ack}) as the queue grows, in three states measured in every durability mode:
 * a small queue, a large backlog of ready rows, and the same backlog with not-yet-due jobs at its head (the lowest
 * ids, made by claiming them and nacking them with a long delay). Each is compared with the small queue and with
 * the raw claim+ack. The backlog is built once, with {@code putMany} batches of 1,000, and shared by both modes.
 */
public final class BacklogScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "backlog";

    private static final String QUEUE = "backlog";

    /** Long enough that no delayed job becomes due during a run. */
    private static final Duration HEAD_DELAY = Duration.ofHours(24);

    @Override
    public String name() {
        return "backlog";
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.CLAIM_ACK);
    }

    /** Building a million-row backlog takes longer than the measurement, so it runs once. */
    @Override
    public boolean repeated() {
        return false;
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        Profile profile = context.profile();
        List<ScenarioResult> results = new ArrayList<>();
        Map<DurabilityMode, Double> small = new EnumMap<>(DurabilityMode.class);
        String smallName = "backlog-small-" + Format.compact(profile.backlogSmallRows());
        for (DurabilityMode mode : context.modes()) {
            context.progress(smallName + " [" + mode + "]");
            Path directory = context.newDirectory(smallName);
            State state = new State(profile.backlogSmallRows() + profile.warmupOperations()
                    + profile.backlogOperations());
            try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, QUEUE, mode)) {
                RunContext.preload(queue, state.rows);
                ScenarioResult result = measure(context, smallName, queue, mode, state, null).build();
                small.put(mode, result.throughputPerSecond());
                results.add(result);
            }
        }

        String largeName = "backlog-" + Format.compact(profile.backlogRows());
        Path large = context.newDirectory(largeName);
        State state = new State(profile.backlogRows());
        context.progress(largeName + ": building " + state.rows + " rows");
        long buildStart = System.nanoTime();
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(large, QUEUE, DurabilityMode.RELAXED)) {
            RunContext.preload(queue, state.rows);
        }
        double buildRate = ScenarioResult.perSecond(state.rows, System.nanoTime() - buildStart);
        for (DurabilityMode mode : context.modes()) {
            context.progress(largeName + " [" + mode + "]");
            try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(large, QUEUE, mode)) {
                results.add(measure(context, largeName, queue, mode, state, small.get(mode))
                        .detail("buildRowsPerSecond", buildRate)
                        .build());
            }
        }

        int delayed = profile.backlogDelayedRows();
        String delayedName = largeName + "-delayed-" + Format.compact(delayed);
        context.progress(delayedName + ": delaying " + delayed + " jobs at the head");
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(large, QUEUE, DurabilityMode.RELAXED)) {
            for (int i = 0; i < delayed; i++) {
                queue.nack(queue.getNowait(), HEAD_DELAY, null);
            }
        }
        for (DurabilityMode mode : context.modes()) {
            context.progress(delayedName + " [" + mode + "]");
            try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(large, QUEUE, mode)) {
                results.add(measure(context, delayedName, queue, mode, state, small.get(mode))
                        .detail("delayedJobsAtHead", delayed)
                        .build());
            }
        }
        return results;
    }

    /**
     * Measures claim+ack and checks that no delayed job was claimed and the counts add up.
     *
     * @param smallThroughput the small queue's throughput in this mode, or null when this is the small queue
     */
    private static ScenarioResult.Builder measure(RunContext context, String name, SimpleQueue<BenchMessage> queue,
                                                  DurabilityMode mode, State state,
                                                  @Nullable Double smallThroughput)
            throws Exception {
        long readyBefore = state.rows - state.acked;
        int[] redelivered = new int[1];
        OperationLoop.Timing timing = OperationLoop.run(context.profile().limits(context.profile()
                .backlogOperations()), i -> {
            Job<BenchMessage> job = queue.getNowait();
            if (job.attempts() != 0) {
                redelivered[0]++;
            }
            queue.ack(job);
        });
        state.acked += timing.total();
        Validation notDelayed = Validation.check(redelivered[0] == 0,
                redelivered[0] + " claimed jobs were delayed or redelivered ones");
        ScenarioResult.Builder result = ScenarioResult.builder(name, GROUP, mode)
                .measured(timing, 1, "jobs")
                .latency(timing.latencies(), "one getNowait + ack")
                .baseline(RawWorkload.CLAIM_ACK)
                .detail("readyRowsAtStart", readyBefore - timing.warmups())
                .validation(notDelayed.and(QueueChecks.counts(queue, state.rows - state.acked, 0, state.acked, 0)));
        if (smallThroughput != null && smallThroughput > 0) {
            result.detail("ratioToSmallQueue", ScenarioResult.perSecond(timing.count(), timing.elapsedNanos())
                    / smallThroughput);
        }
        return result;
    }

    /** A queue's size and how many of its jobs have been acknowledged so far. */
    private static final class State {
        final int rows;
        long acked;

        State(int rows) {
            this.rows = rows;
        }
    }
}
