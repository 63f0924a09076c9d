package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
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
 * Claim+ack ({@code getNowait} + {@code ack}) as the queue grows, in four states measured in every durability mode:
 * a small queue, a large backlog of ready rows, a backlog as large whose jobs carry mixed priorities (compared with
 * the plain one), and the plain backlog with not-yet-due jobs at its head (the lowest ids, made by claiming them and
 * nacking them with a long delay). Each is compared with the small queue and with the raw claim+ack. Each backlog is
 * built once, with {@code putMany} batches of 1,000, and shared by both modes.
 */
public final class BacklogScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "backlog";

    private static final String QUEUE = "backlog";

    /** The priorities of the mixed backlog, spread evenly over its jobs: -2 to 2. */
    private static final int PRIORITY_LEVELS = 5;

    /** The detail of the mixed backlog that compares it with the plain one of the same mode. */
    static final String RATIO_TO_PLAIN_BACKLOG = "ratioToPlainBacklog";

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
        Map<DurabilityMode, Double> plain = new EnumMap<>(DurabilityMode.class);
        for (DurabilityMode mode : context.modes()) {
            context.progress(largeName + " [" + mode + "]");
            try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(large, QUEUE, mode)) {
                ScenarioResult result = measure(context, largeName, queue, mode, state, small.get(mode))
                        .detail("buildRowsPerSecond", buildRate)
                        .build();
                plain.put(mode, result.throughputPerSecond());
                results.add(result);
            }
        }

        String mixedName = largeName + "-priorities";
        Path mixed = context.newDirectory(mixedName);
        State mixedState = new State(profile.backlogRows());
        context.progress(mixedName + ": building " + mixedState.rows + " rows of " + PRIORITY_LEVELS + " priorities");
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(mixed, QUEUE, DurabilityMode.RELAXED)) {
            preloadWithPriorities(queue, mixedState.rows);
        }
        for (DurabilityMode mode : context.modes()) {
            context.progress(mixedName + " [" + mode + "]");
            try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(mixed, QUEUE, mode)) {
                ScenarioResult.Builder result = measure(context, mixedName, queue, mode, mixedState, small.get(mode))
                        .detail("priorities", PRIORITY_LEVELS);
                results.add(withRatio(result, plain.get(mode)));
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

    /** Puts {@code jobs} jobs whose priorities cycle through the levels, so every level holds an even share. */
    private static void preloadWithPriorities(SimpleQueue<BenchMessage> queue, int jobs) {
        long now = System.nanoTime();
        for (int done = 0; done < jobs; done += 1_000) {
            int size = Math.min(1_000, jobs - done);
            List<EnqueueItem<BenchMessage>> items = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int priority = (done + i) % PRIORITY_LEVELS - PRIORITY_LEVELS / 2;
                items.add(EnqueueItem.of(BenchMessage.of(done + i, now))
                        .withOptions(EnqueueOptions.defaults().priority(priority)));
            }
            queue.putMany(items);
        }
    }

    /** Adds the mixed backlog's throughput as a share of the plain backlog's of the same mode. */
    private static ScenarioResult withRatio(ScenarioResult.Builder builder, @Nullable Double plainThroughput) {
        ScenarioResult result = builder.build();
        if (plainThroughput == null || plainThroughput <= 0) {
            return result;
        }
        return builder.detail(RATIO_TO_PLAIN_BACKLOG, result.throughputPerSecond() / plainThroughput).build();
    }

    /**
     * Measures claim+ack and checks that no delayed job was claimed, that jobs came in priority order, and that the
     * counts add up.
     *
     * @param smallThroughput the small queue's throughput in this mode, or null when this is the small queue
     */
    private static ScenarioResult.Builder measure(RunContext context, String name, SimpleQueue<BenchMessage> queue,
                                                  DurabilityMode mode, State state,
                                                  @Nullable Double smallThroughput)
            throws Exception {
        long readyBefore = state.rows - state.acked;
        int[] redelivered = new int[1];
        int[] outOfOrder = new int[1];
        int[] lastPriority = {Integer.MIN_VALUE};
        OperationLoop.Timing timing = OperationLoop.run(context.profile().limits(context.profile()
                .backlogOperations()), i -> {
            Job<BenchMessage> job = queue.getNowait();
            if (job.attempts() != 0) {
                redelivered[0]++;
            }
            if (job.priority() < lastPriority[0]) {
                outOfOrder[0]++;
            }
            lastPriority[0] = job.priority();
            queue.ack(job);
        });
        state.acked += timing.total();
        Validation notDelayed = Validation.check(redelivered[0] == 0,
                redelivered[0] + " claimed jobs were delayed or redelivered ones")
                .and(Validation.check(outOfOrder[0] == 0, outOfOrder[0] + " claims came before a more urgent job"));
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
