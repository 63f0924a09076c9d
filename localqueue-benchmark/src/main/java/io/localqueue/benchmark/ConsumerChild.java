package io.localqueue.benchmark;

import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.nio.file.Path;
import java.time.Duration;

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

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        int concurrency = (int) settings.number("concurrency");
        Path logFile = Path.of(settings.text("log"));
        try (SimpleQueue<BenchMessage> queue = settings.openQueue()) {
            try (SimpleQueue<BenchMessage> warm = settings.openPrivateQueue("warmup-c")) {
                warmUp(warm, concurrency, (int) settings.number("warmup"));
            }
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
    private static void warmUp(SimpleQueue<BenchMessage> warm, int concurrency, int jobs) throws Exception {
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
