package io.localqueue.benchmark;

import io.localqueue.SimpleQueue;
import java.util.concurrent.TimeUnit;

/**
 * A producer process: warms up on a queue of its own, prints {@code READY}, and on {@code GO} puts its range of
 * sequence numbers one {@code put} (one transaction) at a time until the range or its time budget is exhausted,
 * then prints {@code DONE <count put> <nanoTime> <CPU nanoseconds used since GO>}.
 */
final class ProducerChild {

    static final String ROLE = "producer";

    private ProducerChild() {
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        long first = settings.number("first");
        long count = settings.number("count");
        long warmup = settings.number("warmup");
        long budgetNanos = TimeUnit.MILLISECONDS.toNanos(settings.number("millis"));
        try (SimpleQueue<BenchMessage> queue = settings.openQueue()) {
            try (SimpleQueue<BenchMessage> warm = settings.openSharedWarmupQueue()) {
                for (int i = 0; i < warmup; i++) {
                    warm.put(BenchMessage.of(i, System.nanoTime()));
                }
            }
            CompilerQuiet.await(ConsumerChild.COMPILER_QUIET_WAIT);
            io.emit("READY");
            io.await("GO");
            long cpuAtGo = ProcessCpu.nanos();
            long start = System.nanoTime();
            int done = 0;
            while (done < count && (done == 0 || System.nanoTime() - start < budgetNanos)) {
                queue.put(BenchMessage.of(first + done, System.nanoTime()));
                done++;
            }
            io.emit("DONE " + done + " " + System.nanoTime() + " " + (ProcessCpu.nanos() - cpuAtGo));
        }
    }
}
