package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.util.Map;
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

    static void run(Map<String, String> settings, ChildMain.ChildIo io) throws Exception {
        Path directory = Path.of(settings.get("dir"));
        DurabilityMode mode = DurabilityMode.valueOf(settings.get("mode"));
        String queueName = settings.get("queue");
        long first = Long.parseLong(settings.get("first"));
        int count = Integer.parseInt(settings.get("count"));
        int warmup = Integer.parseInt(settings.get("warmup"));
        long budgetNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(settings.get("millis")));
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, queueName, mode)) {
            try (SimpleQueue<BenchMessage> warm = RunContext.openQueue(directory,
                    queueName + "-warmup-p" + settings.get("id"), mode)) {
                for (int i = 0; i < warmup; i++) {
                    warm.put(BenchMessage.of(i, System.nanoTime()));
                }
            }
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
