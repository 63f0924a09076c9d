package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.EventBus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code put-threads-N}: N threads put the profile's {@code put} jobs together, one {@link SimpleQueue#put(Object)}
 * each, as an application's request threads do; {@code bus-dispatch-threads-N}: N threads dispatch the profile's bus
 * dispatches together, one {@link EventBus#dispatch(Object)} each, to one subscription. Each thread count runs on a
 * fresh queue or bus, all in the same run, so that every count's throughput is compared with one thread's measured
 * just before it.
 */
public final class ProducerThreadsScenario implements Scenario {

    /** The thread counts, one first: the others are compared with it. */
    static final List<Integer> THREADS = List.of(1, 4, 16, 64);

    /** The detail holding a count's throughput over one thread's in the same run. */
    static final String RATIO = "ratioToOneThread";

    private final boolean dispatch;

    /** The scenario of puts. */
    public ProducerThreadsScenario() {
        this(false);
    }

    /**
     * The scenario of puts, or of bus dispatches.
     *
     * @param dispatch true for bus dispatches
     */
    public ProducerThreadsScenario(boolean dispatch) {
        this.dispatch = dispatch;
    }

    @Override
    public String name() {
        return dispatch ? "bus-dispatch-threads" : "put-threads";
    }

    /**
     * Repeated: one measurement of each thread count spreads by a quarter between runs on two cores, so each count is
     * represented by the round of its median ratio to one thread, with every round's ratio kept.
     */
    @Override
    public boolean repeated() {
        return true;
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
        int operations = dispatch ? context.profile().busDispatches() : context.profile().putOperations();
        int perThread = Math.max(1, operations / threads);
        int warmupPerThread = Math.max(1, context.profile().warmupOperations() / threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Target target = open(context, mode, name)) {
            run(pool, target, threads, warmupPerThread, new long[threads * warmupPerThread]);
            long[] latencies = new long[threads * perThread];
            long elapsed = run(pool, target, threads, perThread, latencies);
            long measured = (long) threads * perThread;
            long total = (long) threads * (perThread + warmupPerThread);
            String unit = dispatch ? "events" : "jobs";
            ScenarioResult.Builder result = ScenarioResult.builder(name, dispatch ? BusBench.GROUP : PutScenario.GROUP,
                            mode)
                    .throughput(measured, unit, elapsed)
                    .latency(latencies, "one " + (dispatch ? "dispatch" : "put")
                            + ", while the other threads of its count do the same")
                    .validation(target.check(total));
            return new Measured(result, ScenarioResult.perSecond(measured, elapsed));
        } finally {
            pool.shutdownNow();
        }
    }

    private Target open(RunContext context, DurabilityMode mode, String name) throws IOException {
        if (dispatch) {
            EventBus bus = BusBench.open(context.newDirectory(name), mode, 1);
            return new Target() {
                @Override
                public void produce(long seq, long start) {
                    bus.dispatch(BusBench.event(false, seq, start));
                }

                @Override
                public Validation check(long total) {
                    long stored = bus.subscription("s1").stats().ready();
                    return Validation.check(stored == total, stored + " deliveries for " + total + " dispatches");
                }

                @Override
                public void close() {
                    bus.close();
                }
            };
        }
        SimpleQueue<BenchMessage> queue = context.queue(context.newDirectory(name), name, mode);
        return new Target() {
            @Override
            public void produce(long seq, long start) {
                queue.put(BenchMessage.of(seq, start));
            }

            @Override
            public Validation check(long total) {
                return QueueChecks.counts(queue, total, 0, 0, 0);
            }

            @Override
            public void close() {
                queue.close();
            }
        };
    }

    /** What the threads produce into: a queue or a bus. */
    private interface Target extends AutoCloseable {

        void produce(long seq, long start);

        Validation check(long total);

        @Override
        void close();
    }

    /** A thread count's result, still open for its ratio, and its throughput. */
    private record Measured(ScenarioResult.Builder result, double jobsPerSecond) {
    }

    /** Runs {@code perThread} puts or dispatches on each thread, all starting together; returns the span of the whole. */
    private static long run(ExecutorService pool, Target target, int threads, int perThread,
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
                    target.produce(first + i, start);
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
