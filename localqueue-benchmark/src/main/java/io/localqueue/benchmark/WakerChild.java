package io.localqueue.benchmark;

import io.localqueue.SimpleQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The putting side of the cross-process wake-up scenario: prints {@code READY}; for each {@code PUT <seq>} waits a
 * few random milliseconds (so the parent is surely blocked in {@code get}), puts one job and prints
 * {@code PUT <seq> <putStartNanos> <putReturnedNanos>}; stops on {@code EXIT}.
 */
final class WakerChild {

    static final String ROLE = "waker";

    private static final long MIN_PAUSE_NANOS = 3_000_000;
    private static final long MAX_PAUSE_NANOS = 10_000_000;

    private WakerChild() {
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        try (SimpleQueue<BenchMessage> queue = settings.openQueue()) {
            io.emit("READY");
            while (true) {
                String command = io.next();
                if (command.equals("EXIT")) {
                    return;
                }
                long seq = Long.parseLong(command.substring("PUT ".length()));
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(MIN_PAUSE_NANOS, MAX_PAUSE_NANOS));
                long start = System.nanoTime();
                queue.put(BenchMessage.of(seq, start));
                long returned = System.nanoTime();
                io.emit("PUT " + seq + " " + start + " " + returned);
            }
        }
    }
}
