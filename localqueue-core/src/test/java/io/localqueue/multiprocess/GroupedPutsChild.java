package io.localqueue.multiprocess;

import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.sqlite.Failpoints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child JVM of {@link GroupedPutsCrashTest}: after {@value QueueChild#GO}, {@code threads} threads put jobs
 * {@code "<thread>-<n>"} into the queue {@code default} of a directory, each in its own order, and print
 * {@code PUT <payload> <id>} once a put returned. With a failpoint stage, the thread whose put is the
 * {@code armAfter}-th to return arms that stage's halt of the enqueue transaction, so the process dies at the commit
 * of a shared transaction; without one it puts until the test kills it.
 */
final class GroupedPutsChild {

    static final String PUT = "PUT";

    private GroupedPutsChild() {
    }

    /**
     * Arguments: mode ({@code before-commit}, {@code after-commit} or {@code kill}), directory, threads, armAfter.
     */
    public static void main(String[] args) throws Exception {
        ChildProtocol protocol = ChildProtocol.onStdout();
        String mode = args[0];
        Path directory = Path.of(args[1]);
        int threads = Integer.parseInt(args[2]);
        int armAfter = Integer.parseInt(args[3]);
        AtomicInteger returned = new AtomicInteger();
        try (SimpleQueue<String> queue = SimpleQueue.builder(directory, String.class).build()) {
            protocol.ready();
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                Thread producer = new Thread(() -> {
                    for (int n = 0; n < 1_000_000; n++) {
                        String payload = thread + "-" + n;
                        long id = queue.put(payload);
                        protocol.print(PUT, payload, id);
                        if (returned.incrementAndGet() == armAfter && !mode.equals("kill")) {
                            Failpoints.arm("enqueue:" + mode + ":halt");
                        }
                    }
                }, "producer-" + t);
                producer.start();
                producers.add(producer);
            }
            for (Thread producer : producers) {
                producer.join();
            }
        }
        System.exit(0);
    }
}
