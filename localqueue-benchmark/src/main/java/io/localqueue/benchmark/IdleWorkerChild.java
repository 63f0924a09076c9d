package io.localqueue.benchmark;

import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.time.Duration;

/**
 * Measures the CPU an idle {@link Worker} costs: on an empty queue, the process's CPU time over wall time first
 * without a worker, then with a worker (default poll interval) waiting for jobs; prints
 * {@code IDLE <cpuNanosWithout> <wallNanosWithout> <cpuNanosWith> <wallNanosWith>}.
 */
final class IdleWorkerChild {

    static final String ROLE = "idle";

    /** The longest wait for start-up work (class loading, compilation) to die down before each measurement. */
    private static final Duration MAX_SETTLE = Duration.ofSeconds(1);

    private IdleWorkerChild() {
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        Duration idle = Duration.ofMillis(settings.number("millis"));
        long settleMillis = Math.min(MAX_SETTLE.toMillis(), idle.toMillis() / 2);
        try (SimpleQueue<BenchMessage> queue = settings.openQueue()) {
            queue.stats();
            Thread.sleep(settleMillis);
            long[] without = measure(idle);
            Worker<BenchMessage> worker = Worker.builder(queue, job -> { }).build();
            worker.start();
            try {
                Thread.sleep(settleMillis);
                long[] with = measure(idle);
                io.emit("IDLE " + without[0] + " " + without[1] + " " + with[0] + " " + with[1]);
            } finally {
                worker.stop(Duration.ofSeconds(10));
            }
        }
    }

    /** Returns the process CPU time and the wall time of an idle period. */
    private static long[] measure(Duration idle) throws InterruptedException {
        long cpuStart = ProcessCpu.nanos();
        long wallStart = System.nanoTime();
        Thread.sleep(idle.toMillis());
        long cpu = ProcessCpu.nanos() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        return new long[] {cpu, wall};
    }
}
