package io.localqueue.benchmark;

import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.testsupport.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A consumer process: warms a {@link Worker} up on a queue of its own, prints {@code READY}, on {@code GO} starts a
 * Worker on the shared queue (whose handler does nothing, or waits {@code handlerPauseMicros} as a job that calls
 * another service does), on {@code STOP} stops it, writes every acknowledgement it made to
 * its {@link AckLog} file and prints {@code DONE <count> <CPU nanoseconds used from GO to STOP>}.
 */
final class ConsumerChild {

    static final String ROLE = "consumer";

    /** The setting of how long the handler waits for each job, in microseconds; 0 for not at all. */
    static final String HANDLER_PAUSE = "handlerPauseMicros";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private ConsumerChild() {
    }

    /** How often the warm-up looks whether all warm-up jobs were acknowledged; outside any measured region. */
    private static final long WARMUP_POLL_MILLIS = 20;

    /** The longest wait for the compiler to finish what the warm-up queued. */
    static final Duration COMPILER_QUIET_WAIT = Duration.ofSeconds(20);

    /**
     * What the consumers of a scenario said when stopped.
     *
     * @param acks each consumer's acknowledgements, in the order of the consumers
     * @param cpuNanos the CPU they used from {@code GO} to {@code STOP}, together
     * @param ledger every acknowledgement of their logs
     */
    record Stopped(List<Integer> acks, long cpuNanos, AckLedger ledger) {
    }

    /**
     * Stops each consumer in turn, waits for its report and its exit, then reads their logs.
     *
     * @param consumers the consumer processes
     * @param logs their log files
     * @param ids how many sequence numbers the ledger holds
     * @return what they reported
     * @throws IOException when a log cannot be read
     */
    static Stopped stopAll(List<ChildProcess> consumers, List<Path> logs, int ids) throws IOException {
        List<Integer> acks = new ArrayList<>();
        long cpu = 0;
        for (ChildProcess consumer : consumers) {
            consumer.send("STOP");
            List<String> done = consumer.expect("DONE");
            acks.add(Integer.parseInt(done.get(0)));
            cpu += Long.parseLong(done.get(1));
            consumer.awaitSuccess();
        }
        AckLedger ledger = new AckLedger(ids);
        for (Path log : logs) {
            AckLog.readInto(log, ledger);
        }
        return new Stopped(List.copyOf(acks), cpu, ledger);
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        int concurrency = (int) settings.number("concurrency");
        long pauseNanos = TimeUnit.MICROSECONDS.toNanos(settings.number(HANDLER_PAUSE));
        Path logFile = Path.of(settings.text("log"));
        try (SimpleQueue<BenchMessage> queue = settings.openQueue()) {
            try (SimpleQueue<BenchMessage> warm = settings.openSharedWarmupQueue()) {
                warmUp(warm, concurrency, settings.number("warmupTotal"));
            }
            CompilerQuiet.await(COMPILER_QUIET_WAIT);
            AckLog log = new AckLog();
            Worker<BenchMessage> worker = Worker.builder(queue, job -> pause(pauseNanos))
                    .concurrency(concurrency)
                    .observer(new AckObserver(log::add))
                    .build();
            io.emit("READY");
            io.await("GO");
            long cpuAtGo = ProcessCpu.nanos();
            worker.start();
            io.await("STOP");
            long cpu = ProcessCpu.nanos() - cpuAtGo;
            worker.stop(STOP_TIMEOUT);
            log.writeTo(logFile);
            io.emit("DONE " + log.count() + " " + cpu);
        }
    }

    /** Waits as a handler that calls another service does: parked, using no CPU. */
    private static void pause(long nanos) {
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }

    /**
     * Runs a worker like the measured one on the mix's shared warm-up queue until the producers' warm-up jobs are all
     * acknowledged, by this consumer or the others, so every path the measurement takes, across processes too, is
     * compiled before it starts.
     */
    private static void warmUp(SimpleQueue<BenchMessage> warm, int concurrency, long total) throws Exception {
        Worker<BenchMessage> worker = Worker.builder(warm, job -> { }).concurrency(concurrency).build();
        worker.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (warm.stats().acked() < total) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("warm-up acknowledged only " + warm.stats().acked() + " of "
                            + total);
                }
                Thread.sleep(WARMUP_POLL_MILLIS);
            }
        } finally {
            worker.stop(STOP_TIMEOUT);
        }
    }
}
