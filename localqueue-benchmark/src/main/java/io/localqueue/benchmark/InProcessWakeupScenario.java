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
 * random pause of 2 to 8 ms.
 */
public final class InProcessWakeupScenario extends WakeupScenario {

    private static final Duration GET_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return "wakeup-in-process";
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
                long start = System.nanoTime();
                queue.put(BenchMessage.of(seq, start));
                long putReturned = System.nanoTime();
                long[] result = got.get(GET_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
                return new Sample(result[0], start, putReturned, result[1]);
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
