package io.localqueue.benchmark;

import io.localqueue.testsupport.ChildProcess;
import io.localqueue.DurabilityMode;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code multiprocess-<P>P/<C>C}: P producer JVMs ({@link ProducerChild}) each put their share of the jobs one
 * {@code put} at a time, while C consumer JVMs ({@link ConsumerChild}) each run a {@code Worker}; all start together
 * on a {@code GO} barrier after warming up. The measured region runs from {@code GO} to the last acknowledgement;
 * latencies run from just before a job's put to its acknowledgement, across processes. Validation merges the
 * consumers' logs: every id acknowledged exactly once. Compared with the raw put+claim+ack.
 */
public final class MultiprocessScenario extends PerModeScenario {

    /** The report section. */
    public static final String GROUP = "multiprocess";

    private static final String QUEUE = "multiprocess";
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(30);

    private final Profile.Mix mix;

    /**
     * Creates the scenario for one producer/consumer mix.
     *
     * @param mix the process counts
     */
    public MultiprocessScenario(Profile.Mix mix) {
        this.mix = mix;
    }

    @Override
    public String name() {
        return "multiprocess-" + mix.label();
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.PUT_CLAIM_ACK);
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        Profile profile = context.profile();
        int total = profile.multiprocessJobs();
        Path directory = context.newDirectory(name());
        Path scratch = context.newDirectory(name() + "-scratch");
        List<ChildProcess> producers = new ArrayList<>();
        List<ChildProcess> consumers = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        long[] firsts = new long[mix.producers()];
        long[] produced = new long[mix.producers()];
        try (SimpleQueue<BenchMessage> queue = context.queue(directory, QUEUE, mode)) {
            long first = 0;
            for (int p = 0; p < mix.producers(); p++) {
                int count = total / mix.producers() + (p < total % mix.producers() ? 1 : 0);
                firsts[p] = first;
                producers.add(ChildJvms.start("producer-" + p, scratch, ProducerChild.ROLE, ChildJvms.settings(
                        context, "dir=" + directory, "mode=" + mode, "queue=" + QUEUE, "id=" + p, "first=" + first,
                        "count=" + count, "warmup=" + warmupShare(profile, mix, p),
                        "millis=" + profile.measureTime().toMillis())));
                first += count;
            }
            for (int c = 0; c < mix.consumers(); c++) {
                Path log = scratch.resolve("consumer-" + c + ".acks");
                logs.add(log);
                consumers.add(ChildJvms.start("consumer-" + c, scratch, ConsumerChild.ROLE, ChildJvms.settings(
                        context, "dir=" + directory, "mode=" + mode, "queue=" + QUEUE, "id=" + c,
                        "concurrency=" + profile.consumerConcurrency(), ConsumerChild.HANDLER_PAUSE + "=0",
                        "warmupTotal=" + profile.warmupOperations(), "log=" + log)));
            }
            List<ChildProcess> all = new ArrayList<>(producers);
            all.addAll(consumers);
            long go = ChildProcess.releaseTogether(all);

            long producedEnd = Long.MIN_VALUE;
            long childCpuNanos = 0;
            int jobs = 0;
            for (int p = 0; p < mix.producers(); p++) {
                List<String> done = producers.get(p).expect("DONE", DRAIN_TIMEOUT);
                produced[p] = Long.parseLong(done.get(0));
                jobs += (int) produced[p];
                producedEnd = Math.max(producedEnd, Long.parseLong(done.get(1)));
                childCpuNanos += Long.parseLong(done.get(2));
                producers.get(p).awaitSuccess();
            }
            QueueStats drained = QueueChecks.awaitAcknowledged(queue, jobs, DRAIN_TIMEOUT);
            ConsumerChild.Stopped stopped = ConsumerChild.stopAll(consumers, logs, total);
            childCpuNanos += stopped.cpuNanos();
            List<Integer> perConsumer = stopped.acks();
            AckLedger ledger = stopped.ledger();
            Validation counts = QueueChecks.counts(queue, 0, 0, jobs, 0);
            return ScenarioResult.builder(name(), GROUP, mode)
                    .throughput(jobs, "jobs", ledger.lastAckNanos() - go)
                    .requested(total)
                    .latency(latencies(ledger, firsts, produced), "put start (producer JVM) to ack commit "
                            + "(consumer JVM)")
                    .baseline(RawWorkload.PUT_CLAIM_ACK)
                    .detail("producers", mix.producers())
                    .detail("consumers", mix.consumers())
                    .detail("consumerWorkerConcurrency", profile.consumerConcurrency())
                    .detail("producedPerSecond", ScenarioResult.perSecond(jobs, producedEnd - go))
                    .detail("acksPerConsumer", perConsumer)
                    .detail("childCpuMicrosPerJob", childCpuNanos / 1_000.0 / Math.max(1, jobs))
                    .detail("childCoresBusy", childCpuNanos / (double) Math.max(1, ledger.lastAckNanos() - go))
                    .validation(ledger.exactlyOnce(seq -> wasProduced(seq, firsts, produced)).and(counts)
                            .and(Validation.check(drained.acked() == jobs, "drained: " + drained)))
                    .build();
        } finally {
            for (ChildProcess child : producers) {
                child.close();
            }
            for (ChildProcess child : consumers) {
                child.close();
            }
        }
    }

    private static boolean wasProduced(int seq, long[] firsts, long[] produced) {
        for (int p = 0; p < firsts.length; p++) {
            if (seq >= firsts[p] && seq < firsts[p] + produced[p]) {
                return true;
            }
        }
        return false;
    }

    private static long[] latencies(AckLedger ledger, long[] firsts, long[] produced) {
        List<long[]> parts = new ArrayList<>();
        int size = 0;
        for (int p = 0; p < firsts.length; p++) {
            long[] part = ledger.latencies((int) firsts[p], (int) (firsts[p] + produced[p]));
            parts.add(part);
            size += part.length;
        }
        long[] all = new long[size];
        int at = 0;
        for (long[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    /** Producer {@code p}'s share of the mix's warm-up jobs, which the producers put together. */
    private static int warmupShare(Profile profile, Profile.Mix mix, int p) {
        int total = profile.warmupOperations();
        return total / mix.producers() + (p < total % mix.producers() ? 1 : 0);
    }
}
