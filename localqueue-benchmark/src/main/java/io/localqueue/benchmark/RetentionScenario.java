package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.QueueEmptyException;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Claims while retention deletes: {@code getNowait} + {@code ack} on one queue of a file, first with nothing else
 * running, then while {@link SimpleQueue#runRetention()} deletes a fifth of {@link Profile#backlogRows()} acknowledged
 * jobs (200,000 in the standard profile) of another queue of the same file in its batches. A claim waits for the write lock behind at most one batch, so the second
 * loop's latencies, set against the first's, tell how long a batch holds the lock. The finished jobs are built once,
 * two hours old on their queue's clock, and copied for each durability mode.
 */
public final class RetentionScenario implements Scenario {

    private static final Duration AGE = Duration.ofHours(2);
    private static final Duration KEPT = Duration.ofHours(1);
    private static final String FINISHED = "finished";
    private static final String WORK = "work";

    /** The during-retention result's p99 latency as a multiple of the quiet loop's. */
    static final String P99_RATIO_TO_QUIET = "p99RatioToQuiet";

    @Override
    public String name() {
        return "retention";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        Sizes sizes = new Sizes(context.profile().backlogRows() / 5, context.profile().backlogOperations() * 2);
        Path template = context.newDirectory("retention-template");
        context.progress("retention: building " + sizes.finished() + " acknowledged jobs");
        build(template, sizes);
        List<ScenarioResult> results = new ArrayList<>();
        for (DurabilityMode mode : context.modes()) {
            context.progress("retention [" + mode + "]");
            Path directory = context.newDirectory("retention-" + mode);
            copyFiles(template, directory);
            results.addAll(measure(directory, mode, sizes));
        }
        return results;
    }

    /**
     * The scenario's sizes.
     *
     * @param finished acknowledged jobs the retention deletes in each mode
     * @param quietClaims claims of the quiet loop
     */
    private record Sizes(int finished, int quietClaims) {

        /** Ready jobs of the claiming queue: the claims during the deletion are a fraction of the rows deleted. */
        int work() {
            return quietClaims + finished;
        }
    }

    private static void build(Path directory, Sizes sizes) {
        Clock past = Clock.offset(Clock.systemUTC(), AGE.negated());
        try (SimpleQueue<BenchMessage> finished = SimpleQueue.builder(directory, BenchMessage.class).name(FINISHED)
                .delivery(RunContext.DELIVERY).durability(DurabilityMode.RELAXED).clock(past).build()) {
            RunContext.preload(finished, sizes.finished());
            for (int i = 0; i < sizes.finished(); i++) {
                finished.ack(finished.getNowait());
            }
        }
        try (SimpleQueue<BenchMessage> work = RunContext.openQueue(directory, WORK, DurabilityMode.RELAXED)) {
            RunContext.preload(work, sizes.work());
        }
    }

    /** Copies the closed template's files (the database and its side files) into a fresh directory. */
    private static void copyFiles(Path template, Path directory) throws IOException {
        try (Stream<Path> files = Files.list(template)) {
            for (Path file : files.toList()) {
                if (Files.isRegularFile(file)) {
                    Files.copy(file, directory.resolve(file.getFileName()));
                }
            }
        }
    }

    private static List<ScenarioResult> measure(Path directory, DurabilityMode mode, Sizes sizes) throws Exception {
        try (SimpleQueue<BenchMessage> finished = SimpleQueue.builder(directory, BenchMessage.class).name(FINISHED)
                .delivery(RunContext.DELIVERY).durability(mode).retention(KEPT, null).build();
             SimpleQueue<BenchMessage> work = RunContext.openQueue(directory, WORK, mode)) {
            Samples quiet = new Samples(sizes.quietClaims());
            long quietStart = System.nanoTime();
            while (quiet.count < sizes.quietClaims()) {
                quiet.add(claimAndAck(work));
            }
            long quietNanos = System.nanoTime() - quietStart;

            Samples during = new Samples(sizes.finished());
            long start = System.nanoTime();
            CompletableFuture<Long> deletion = CompletableFuture.supplyAsync(finished::runRetention);
            boolean ranOut = false;
            while (!deletion.isDone()) {
                try {
                    during.add(claimAndAck(work));
                } catch (QueueEmptyException empty) {
                    ranOut = true;
                    break;
                }
            }
            long deleted = deletion.get(10, TimeUnit.MINUTES);
            long deletionNanos = System.nanoTime() - start;

            Percentiles quietLatency = Percentiles.of(quiet.values());
            Percentiles duringLatency = Percentiles.of(during.values());
            ScenarioResult quietResult = ScenarioResult.builder("retention-claims-quiet", BacklogScenario.GROUP, mode)
                    .throughput(quiet.count, "jobs", quietNanos)
                    .latency(quiet.values(), "one getNowait + ack, nothing else running")
                    .build();
            ScenarioResult duringResult = ScenarioResult.builder("retention-claims-during", BacklogScenario.GROUP,
                            mode)
                    .throughput(during.count, "jobs", deletionNanos)
                    .latency(during.values(), "one getNowait + ack while retention deletes")
                    .detail("deletedJobs", deleted)
                    .detail("deletedJobsPerSecond", ScenarioResult.perSecond(deleted, deletionNanos))
                    .detail(P99_RATIO_TO_QUIET, (double) duringLatency.p99() / Math.max(1, quietLatency.p99()))
                    .validation(Validation.check(deleted == sizes.finished(),
                                    deleted + " of " + sizes.finished() + " finished jobs deleted")
                            .and(Validation.check(!ranOut, "the claiming queue ran out before the retention ended"))
                            .and(Validation.check(during.count > 0, "no claim ran while the retention deleted"))
                            .and(QueueChecks.counts(work, sizes.work() - quiet.count - during.count, 0,
                                    quiet.count + during.count, 0)))
                    .build();
            return List.of(quietResult, duringResult);
        }
    }

    private static long claimAndAck(SimpleQueue<BenchMessage> queue) {
        long start = System.nanoTime();
        queue.ack(queue.getNowait());
        return System.nanoTime() - start;
    }

    /** Latency samples, in nanoseconds, up to a fixed number. */
    private static final class Samples {
        private final long[] values;
        private int count;

        Samples(int capacity) {
            this.values = new long[capacity];
        }

        void add(long nanos) {
            if (count == values.length) {
                throw new IllegalStateException("more than " + values.length + " claims");
            }
            values[count++] = nanos;
        }

        long[] values() {
            return Arrays.copyOf(values, count);
        }
    }
}
