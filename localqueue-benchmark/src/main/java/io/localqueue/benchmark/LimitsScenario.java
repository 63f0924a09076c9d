package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Claim+ack ({@code getNowait} + {@code ack}) on a queue under each of its limits, set against the same loop on a
 * queue without any, in the same round and mode: the queue-wide limit, the per-key limit over
 * {@value #KEYS} concurrency keys (every job has one), and a rate limit, each set well above what one consumer reaches,
 * so that the rows show what counting costs a claim, not what holding back does. The plain row's jobs carry keys too.
 * Each queue is also drained by a {@link Worker} ({@code -worker} rows): batched claims, as listeners make; one more
 * worker row has a per-key limit that binds, to show what holding jobs back and putting them back costs.
 */
public final class LimitsScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "limits";

    /** The detail that compares a limited queue's throughput with the plain queue's of the same round and mode. */
    static final String RATIO_TO_PLAIN = "ratioToPlain";

    /** How many concurrency keys the jobs are spread over. */
    static final int KEYS = 100;

    private static final String QUEUE = "limits";

    @Override
    public String name() {
        return "limits";
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.CLAIM_ACK);
    }

    /**
     * One measured loop: its name, the limits of its queue, and whether only a {@link Worker} drains it (a limit that
     * binds, which a loop of one claim at a time never fills).
     */
    private record Variant(String name, String description, UnaryOperator<SimpleQueue.Builder<BenchMessage>> limits,
                           boolean workerOnly) {

        Variant(String name, String description, UnaryOperator<SimpleQueue.Builder<BenchMessage>> limits) {
            this(name, description, limits, false);
        }
    }

    private static final List<Variant> VARIANTS = List.of(
            new Variant("limits-plain", "no limit", UnaryOperator.identity()),
            new Variant("limits-max-concurrent", "maxConcurrent(1000)", builder -> builder.maxConcurrent(1_000)),
            new Variant("limits-per-key-" + KEYS, "maxConcurrentPerKey(10) over " + KEYS + " keys",
                    builder -> builder.maxConcurrentPerKey(10)),
            new Variant("limits-rate", "rateLimit(10,000,000 per second)",
                    builder -> builder.rateLimit(10_000_000, Duration.ofSeconds(1))),
            new Variant("limits-per-key-" + KEYS + "-full", "maxConcurrentPerKey(1) over " + KEYS
                    + " keys, fewer slots than the worker's prefetched and unacknowledged jobs: jobs are held and put"
                    + " back", builder -> builder.maxConcurrentPerKey(1), true));

    /** The worker that drains each queue in the second measurement: its threads. */
    static final int WORKER_CONCURRENCY = 2;

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        OperationLoop.Limits limits = context.profile().limits(context.profile().getAckOperations());
        int preloaded = limits.warmupOperations() + limits.operations();
        for (DurabilityMode mode : context.modes()) {
            double plain = 0;
            double plainDrain = 0;
            for (Variant variant : VARIANTS) {
                context.progress(variant.name() + "-worker [" + mode + "]");
                try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(variant.name() + "-worker"),
                        QUEUE, mode, variant.limits())) {
                    preload(queue, limits.operations());
                    ScenarioResult.Builder result = drain(queue, limits.operations(), variant, mode);
                    double throughput = result.build().throughputPerSecond();
                    if (plainDrain == 0) {
                        plainDrain = throughput;
                    } else {
                        result.detail(RATIO_TO_PLAIN, throughput / plainDrain);
                    }
                    results.add(result.build());
                }
            }
            for (Variant variant : VARIANTS) {
                if (variant.workerOnly()) {
                    continue;
                }
                context.progress(variant.name() + " [" + mode + "]");
                try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(variant.name()), QUEUE,
                        mode, variant.limits())) {
                    preload(queue, preloaded);
                    OperationLoop.Timing timing = OperationLoop.run(limits, i -> queue.ack(queue.getNowait()));
                    ScenarioResult.Builder result = ScenarioResult.builder(variant.name(), GROUP, mode)
                            .measured(timing, 1, "jobs")
                            .latency(timing.latencies(), "one getNowait + ack, " + variant.description())
                            .baseline(RawWorkload.CLAIM_ACK)
                            .validation(QueueChecks.counts(queue, preloaded - timing.total(), 0, timing.total(), 0));
                    double throughput = ScenarioResult.perSecond(timing.count(), timing.elapsedNanos());
                    if (plain == 0) {
                        plain = throughput;
                    } else {
                        result.detail(RATIO_TO_PLAIN, throughput / plain);
                    }
                    results.add(result.build());
                }
            }
        }
        return results;
    }

    /**
     * Drains the preloaded queue with a {@link Worker} of {@value #WORKER_CONCURRENCY} threads whose handler does
     * nothing: batched claims, prefetch and grouped acknowledgements, as a listener consumes.
     */
    private static ScenarioResult.Builder drain(SimpleQueue<BenchMessage> queue, int jobs, Variant variant,
                                                DurabilityMode mode) throws Exception {
        CountDownLatch done = new CountDownLatch(jobs);
        Worker<BenchMessage> worker = Worker.builder(queue, job -> done.countDown())
                .concurrency(WORKER_CONCURRENCY).build();
        long start = System.nanoTime();
        worker.start();
        boolean drained;
        try {
            drained = done.await(10, TimeUnit.MINUTES);
        } finally {
            worker.stop(Duration.ofSeconds(30));
        }
        long elapsed = System.nanoTime() - start;
        return ScenarioResult.builder(variant.name() + "-worker", GROUP, mode)
                .throughput(jobs, "jobs", elapsed)
                .validation(Validation.check(drained, "the worker handled " + (jobs - done.getCount()) + " of "
                        + jobs + " jobs").and(QueueChecks.counts(queue, 0, 0, jobs, 0)));
    }

    /** Puts the jobs in batches, each with one of {@value #KEYS} keys in turn. */
    private static void preload(SimpleQueue<BenchMessage> queue, int jobs) {
        long now = System.nanoTime();
        for (int done = 0; done < jobs; done += 1_000) {
            int size = Math.min(1_000, jobs - done);
            List<EnqueueItem<BenchMessage>> items = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int index = done + i;
                items.add(EnqueueItem.of(BenchMessage.of(index, now))
                        .withOptions(EnqueueOptions.defaults().concurrencyKey("customer-" + index % KEYS)));
            }
            queue.putMany(items);
        }
    }
}
