package io.localqueue.benchmark;

import io.localqueue.DatabaseBusyException;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A soak producer: puts jobs keyed {@code p<id>-<seq>} (the key is both the job id and the payload) at a steady
 * rate from sequence number {@code first} on, and after each put returned appends {@code <job id> <key>} to its
 * ledger. A restarted producer starts from the sequence number after the last one its ledgers hold, so a put that
 * was in flight when it was killed is put again under the same job id and resolves to the same job. Prints
 * {@code READY} once open and, on {@code STOP}, finishes its current put and prints {@code DONE <count>}.
 */
final class SoakProducerChild {

    static final String ROLE = "soak-producer";

    /** How long one put waits for room or for the write lock before it is tried again. */
    private static final Duration PUT_TIMEOUT = Duration.ofSeconds(30);

    /** A producer that fell this far behind its rate starts a new pace instead of putting in a burst. */
    private static final long MAX_LAG_NANOS = TimeUnit.SECONDS.toNanos(1);

    private SoakProducerChild() {
    }

    /** The key of the job a producer puts with {@code seq}. */
    static String key(long producer, long seq) {
        return "p" + producer + "-" + seq;
    }

    /** The sequence number in a key made by {@link #key}. */
    static long sequence(String key) {
        return Long.parseLong(key.substring(key.indexOf('-') + 1));
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        long producer = settings.number("id");
        long seq = settings.number("first");
        long intervalNanos = TimeUnit.SECONDS.toNanos(1) / settings.number("rate");
        try (SimpleQueue<String> queue = SoakQueue.open(settings);
             LineLog ledger = LineLog.create(Path.of(settings.text("ledger")))) {
            StopSignal stop = StopSignal.watch(io);
            io.emit("READY");
            long count = 0;
            long next = System.nanoTime();
            while (!stop.stopped()) {
                String key = key(producer, seq++);
                ledger.line(putUntilStored(queue, key) + " " + key);
                count++;
                next += intervalNanos;
                long now = System.nanoTime();
                if (next < now - MAX_LAG_NANOS) {
                    next = now;
                }
                LockSupport.parkNanos(next - now);
            }
            io.emit("DONE " + count);
        }
    }

    /** Puts one job, trying again while the queue is full or the write lock stays taken. */
    private static long putUntilStored(SimpleQueue<String> queue, String key) {
        while (true) {
            try {
                return queue.put(key, key, PUT_TIMEOUT);
            } catch (QueueFullException | DatabaseBusyException waitedTooLong) {
                System.err.println("put of " + key + " is tried again: " + waitedTooLong.getMessage());
            }
        }
    }

    /** Set once the parent writes {@code STOP}, or closes standard input. */
    static final class StopSignal {

        private volatile boolean stopped;

        static StopSignal watch(ChildMain.ChildIo io) {
            StopSignal signal = new StopSignal();
            Thread watcher = new Thread(() -> {
                try {
                    io.await("STOP");
                } catch (java.io.IOException parentGone) {
                    // stop as well
                }
                signal.stopped = true;
            }, "stop-watcher");
            watcher.setDaemon(true);
            watcher.start();
            return signal;
        }

        boolean stopped() {
            return stopped;
        }
    }
}
