package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code put-threads-N}: N threads put the profile's {@code put} jobs together, one {@link SimpleQueue#put(Object)}
 * each, as an application's request threads do; each thread count on a fresh queue, all in the same run, so that every
 * count's throughput is compared with one thread's measured just before it.
 */
public final class ProducerThreadsScenario implements Scenario {

    /** The thread counts, one first: the others are compared with it. */
    static final List<Integer> THREADS = List.of(1, 4, 16, 64);

    /** The detail holding a count's throughput over one thread's in the same run. */
    static final String RATIO = "ratioToOneThread";

    @Override
    public String name() {
        return "put-threads";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        for (DurabilityMode mode : context.modes()) {
            double oneThread = 0;
            for (int threads : THREADS) {
                context.progress(name() + "-" + threads + " [" + mode + "]");
                Measured measured = measure(context, mode, threads);
                if (threads == 1) {
                    oneThread = measured.jobsPerSecond();
                } else if (oneThread > 0) {
                    measured.result().detail(RATIO, measured.jobsPerSecond() / oneThread);
                }
                results.add(measured.result().build());
            }
        }
        return results;
    }

    private Measured measure(RunContext context, DurabilityMode mode, int threads) throws Exception {
        String name = name() + "-" + threads;
        int perThread = Math.max(1, context.profile().putOperations() / threads);
        int warmupPerThread = Math.max(1, context.profile().warmupOperations() / threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name), name, mode)) {
            run(pool, queue, threads, warmupPerThread, new long[threads * warmupPerThread]);
            long[] latencies = new long[threads * perThread];
            long elapsed = run(pool, queue, threads, perThread, latencies);
            long measured = (long) threads * perThread;
            long total = (long) threads * (perThread + warmupPerThread);
            ScenarioResult.Builder result = ScenarioResult.builder(name, PutScenario.GROUP, mode)
                    .throughput(measured, "jobs", elapsed)
                    .latency(latencies, "one put, while the other threads of its count put too")
                    .validation(QueueChecks.counts(queue, total, 0, 0, 0));
            return new Measured(result, ScenarioResult.perSecond(measured, elapsed));
        } finally {
            pool.shutdownNow();
        }
    }

    /** A thread count's result, still open for its ratio, and its throughput. */
    private record Measured(ScenarioResult.Builder result, double jobsPerSecond) {
    }

    /** Runs {@code perThread} puts on each thread, all starting together; returns the span of the whole. */
    private static long run(ExecutorService pool, SimpleQueue<BenchMessage> queue, int threads, int perThread,
                            long[] latencies) throws Exception {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t * perThread;
            done.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                for (int i = 0; i < perThread; i++) {
                    long start = System.nanoTime();
                    queue.put(BenchMessage.of(first + i, start));
                    latencies[first + i] = System.nanoTime() - start;
                }
                return null;
            }));
        }
        ready.await();
        long start = System.nanoTime();
        go.countDown();
        for (Future<?> future : done) {
            future.get();
        }
        return System.nanoTime() - start;
    }
}
