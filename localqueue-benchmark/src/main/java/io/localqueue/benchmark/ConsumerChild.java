package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A consumer process: warms a {@link Worker} up on a queue of its own, prints {@code READY}, on {@code GO} starts a
 * Worker (handler does nothing) on the shared queue, on {@code STOP} stops it, writes every acknowledgement it made to
 * its {@link AckLog} file and prints {@code DONE <count> <CPU nanoseconds used from GO to STOP>}.
 */
final class ConsumerChild {

    static final String ROLE = "consumer";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private ConsumerChild() {
    }

    static void run(Map<String, String> settings, ChildMain.ChildIo io) throws Exception {
        Path directory = Path.of(settings.get("dir"));
        DurabilityMode mode = DurabilityMode.valueOf(settings.get("mode"));
        String queueName = settings.get("queue");
        int concurrency = Integer.parseInt(settings.get("concurrency"));
        int warmup = Integer.parseInt(settings.get("warmup"));
        Path logFile = Path.of(settings.get("log"));
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, queueName, mode)) {
            warmUp(directory, queueName + "-warmup-c" + settings.get("id"), mode, concurrency, warmup);
            AckLog log = new AckLog();
            Worker<BenchMessage> worker = Worker.builder(queue, job -> { })
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

    /** Puts {@code jobs} jobs on a private queue and lets a worker like the measured one drain it. */
    private static void warmUp(Path directory, String queueName, DurabilityMode mode, int concurrency, int jobs)
            throws Exception {
        try (SimpleQueue<BenchMessage> warm = RunContext.openQueue(directory, queueName, mode)) {
            RunContext.preload(warm, jobs);
            AckLedger ledger = new AckLedger(jobs);
            Worker<BenchMessage> worker = Worker.builder(warm, job -> { })
                    .concurrency(concurrency)
                    .observer(new AckObserver(ledger::record))
                    .build();
            worker.start();
            try {
                if (!ledger.awaitAcknowledged(jobs, 600)) {
                    throw new IllegalStateException("warm-up acknowledged only " + ledger.acknowledged() + " of "
                            + jobs);
                }
            } finally {
                worker.stop(STOP_TIMEOUT);
            }
        }
    }
}
