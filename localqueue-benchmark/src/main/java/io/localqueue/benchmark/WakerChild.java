package io.localqueue.benchmark;

import io.localqueue.SimpleQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The putting side of the cross-process wake-up scenario: prints {@code READY}; for each {@code PUT <seq>} (or
 * {@code PUT <seq> delayed}, for a job due a few milliseconds later) waits a few random milliseconds (so the parent is
 * surely blocked in {@code get}), puts one job and prints {@code PUT <seq> <putStartNanos> <putReturnedNanos>
 * <dueNanos>}; stops on {@code EXIT}.
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
                String[] words = command.split(" ");
                long seq = Long.parseLong(words[1]);
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(MIN_PAUSE_NANOS, MAX_PAUSE_NANOS));
                long[] put = WakeupScenario.put(queue, seq, words.length > 2);
                io.emit("PUT " + seq + " " + put[0] + " " + put[1] + " " + put[2]);
            }
        }
    }
}
