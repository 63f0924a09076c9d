package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.testsupport.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code multiprocess-drain[-<P>ms]-<C>C}: C consumer JVMs ({@link ConsumerChild}, each a {@code Worker} of the
 * profile's consumer concurrency whose handler does nothing, or waits P ms for each job as one that calls another
 * service does) drain one queue preloaded with {@link Profile#drainJobs()} jobs, for each C of
 * {@link Profile#drainConsumers()} in turn, each on a fresh queue. The consumers warm up together on a
 * queue of their own that this JVM preloads with the profile's warm-up jobs, then start on one {@code GO}; the measured
 * region runs from {@code GO} to the commit of the last acknowledgement. What it shows is how consumption scales with
 * the number of consumer processes on one database: every result of C &gt; 1 carries its throughput divided by the
 * one-consumer run of the same mode ({@code ratioToOneConsumer}). Jobs that do nothing show what the store and the
 * machine can take: the consumers and, on PostgreSQL, the server share its cores ({@code serverCoresBusy}). Jobs that
 * wait show whether the store lets consumers on several hosts work side by side. Validation merges the consumers'
 * logs: every job acknowledged exactly once.
 */
public final class ConsumerDrainScenario implements Scenario {

    private static final String QUEUE = "drain";
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(10);

    /** How long a handler waits for each job, one scenario each: not at all, and as a short call elsewhere. */
    static final List<Duration> HANDLER_PAUSES = List.of(Duration.ZERO, Duration.ofMillis(1));

    /** Detail: the throughput over that of one consumer JVM draining as many jobs in the same mode. */
    static final String RATIO_TO_ONE_CONSUMER = "ratioToOneConsumer";

    private final List<Integer> consumerCounts;
    private final Duration handlerPause;

    /**
     * Creates the scenario.
     *
     * @param consumerCounts the numbers of consumer JVMs, one measured drain each, in order
     * @param handlerPause how long the handler waits for each job; zero for not at all
     */
    public ConsumerDrainScenario(List<Integer> consumerCounts, Duration handlerPause) {
        this.consumerCounts = List.copyOf(consumerCounts);
        this.handlerPause = handlerPause;
    }

    @Override
    public String name() {
        return handlerPause.isZero() ? "multiprocess-drain" : "multiprocess-drain-" + handlerPause.toMillis() + "ms";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        for (DurabilityMode mode : context.modes()) {
            Double oneConsumer = null;
            for (int consumers : consumerCounts) {
                context.progress(name() + "-" + consumers + "C [" + mode + "]");
                ScenarioResult result = drain(context, mode, consumers);
                Double throughput = result.throughputPerSecond();
                if (consumers == 1) {
                    oneConsumer = throughput;
                } else if (oneConsumer != null && oneConsumer > 0 && throughput != null) {
                    result = result.withDetail(RATIO_TO_ONE_CONSUMER, throughput / oneConsumer);
                }
                results.add(result);
            }
        }
        return results;
    }

    private ScenarioResult drain(RunContext context, DurabilityMode mode, int consumerCount) throws Exception {
        Profile profile = context.profile();
        int total = profile.drainJobs();
        String label = name() + "-" + consumerCount + "C";
        Path directory = context.newDirectory(label);
        Path scratch = context.newDirectory(label + "-scratch");
        List<ChildProcess> consumers = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        try (SimpleQueue<BenchMessage> queue = context.queue(directory, QUEUE, mode);
             SimpleQueue<BenchMessage> warmup = context.queue(directory, QUEUE + "-warmup", mode)) {
            RunContext.preload(queue, total);
            RunContext.preload(warmup, profile.warmupOperations());
            for (int c = 0; c < consumerCount; c++) {
                Path log = scratch.resolve("consumer-" + c + ".acks");
                logs.add(log);
                consumers.add(ChildJvms.start("consumer-" + c, scratch, ConsumerChild.ROLE, ChildJvms.settings(
                        context, "dir=" + directory, "mode=" + mode, "queue=" + QUEUE, "id=" + c,
                        "concurrency=" + profile.consumerConcurrency(),
                        ConsumerChild.HANDLER_PAUSE + "=" + handlerPause.toNanos() / 1_000,
                        "warmupTotal=" + profile.warmupOperations(), "log=" + log)));
            }
            @Nullable ServerCpu server = context.store().serverCpu();
            long go = ChildProcess.releaseTogether(consumers);
            Map<Long, Long> serverAtGo = server == null ? Map.of() : server.sample();
            long sampledAtGo = System.nanoTime();
            QueueStats drained = QueueChecks.awaitAcknowledged(queue, total, DRAIN_TIMEOUT);
            long serverCpuNanos = server == null ? 0 : ServerCpu.usedBetween(serverAtGo, server.sample());
            long sampled = System.nanoTime() - sampledAtGo;
            ConsumerChild.Stopped stopped = ConsumerChild.stopAll(consumers, logs, total);
            long childCpuNanos = stopped.cpuNanos();
            List<Integer> perConsumer = stopped.acks();
            AckLedger ledger = stopped.ledger();
            long elapsed = ledger.lastAckNanos() - go;
            ScenarioResult.Builder result = ScenarioResult.builder(label, MultiprocessScenario.GROUP, mode)
                    .throughput(total, "jobs", elapsed)
                    .detail("consumers", consumerCount)
                    .detail("consumerWorkerConcurrency", profile.consumerConcurrency())
                    .detail("handlerPauseMillis", handlerPause.toMillis())
                    .detail("preloadedJobs", total)
                    .detail("acksPerConsumer", perConsumer)
                    .detail("childCpuMicrosPerJob", childCpuNanos / 1_000.0 / Math.max(1, total))
                    .detail("childCoresBusy", childCpuNanos / (double) Math.max(1, elapsed))
                    .validation(ledger.exactlyOnce(total).and(QueueChecks.counts(queue, 0, 0, total, 0))
                            .and(Validation.check(drained.acked() == total, "drained: " + drained)));
            if (server != null) {
                result.detail("serverCoresBusy", serverCpuNanos / (double) Math.max(1, sampled));
            }
            return result.build();
        } finally {
            for (ChildProcess child : consumers) {
                child.close();
            }
        }
    }

}
