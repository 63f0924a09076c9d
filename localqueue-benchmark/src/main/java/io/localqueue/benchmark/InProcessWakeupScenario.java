package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code wakeup-in-process}: a thread blocked in {@code get(timeout)}, another thread of the same JVM puts after a
 * random pause of 2 to 8 ms; {@code lateness-in-process}: the same with each job put for 20 to 40 ms later.
 */
public final class InProcessWakeupScenario extends WakeupScenario {

    private static final Duration GET_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The scenario of plain puts, or of delayed ones.
     *
     * @param delayed whether each job is put for a few milliseconds later
     */
    public InProcessWakeupScenario(boolean delayed) {
        super(delayed);
    }

    @Override
    public String name() {
        return delayed() ? "lateness-in-process" : "wakeup-in-process";
    }

    @Override
    protected Waker start(RunContext context, Path directory, DurabilityMode mode) {
        ExecutorService getter = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "benchmark-wakeup-getter");
            thread.setDaemon(true);
            return thread;
        });
        return new Waker() {
            @Override
            public Sample take(SimpleQueue<BenchMessage> queue, int seq) throws Exception {
                Future<long[]> got = getter.submit(() -> {
                    Job<BenchMessage> job = queue.get(GET_TIMEOUT);
                    long returned = System.nanoTime();
                    queue.ack(job);
                    return new long[] {job.data().seq(), returned};
                });
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(2_000_000, 8_000_000));
                long[] put = put(queue, seq, delayed());
                long[] result = got.get(GET_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
                return new Sample(result[0], put[0], put[1], result[1], put[2]);
            }

            @Override
            public void close() {
                getter.shutdownNow();
                try {
                    getter.awaitTermination(10, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
