package io.localqueue.benchmark;

import io.localqueue.testsupport.ChildProcess;
import io.localqueue.DurabilityMode;
import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code wakeup-cross-process}: this JVM blocked in {@code get(timeout)}, a child JVM ({@link WakerChild}) puts after
 * a random pause of 3 to 10 ms and reports its {@code System.nanoTime()} readings, which on Linux come from the
 * monotonic clock every process shares.
 */
public final class CrossProcessWakeupScenario extends WakeupScenario {

    private static final Duration GET_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The scenario of plain puts, or of delayed ones ({@code lateness-cross-process}).
     *
     * @param delayed whether each job is put for a few milliseconds later
     */
    public CrossProcessWakeupScenario(boolean delayed) {
        super(delayed);
    }

    @Override
    public String name() {
        return delayed() ? "lateness-cross-process" : "wakeup-cross-process";
    }

    @Override
    protected Waker start(RunContext context, Path directory, DurabilityMode mode) throws Exception {
        ChildProcess child = ChildJvms.start("waker", context.newDirectory("waker-scratch"), WakerChild.ROLE, List.of(
                "dir=" + directory, "mode=" + mode, "queue=" + QUEUE));
        try {
            child.expect("READY");
        } catch (RuntimeException failure) {
            child.close();
            throw failure;
        }
        return new Waker() {
            @Override
            public Sample take(SimpleQueue<BenchMessage> queue, int seq) {
                child.send("PUT " + seq + (delayed() ? " delayed" : ""));
                Job<BenchMessage> job = queue.get(GET_TIMEOUT);
                long returned = System.nanoTime();
                queue.ack(job);
                List<String> put = child.expect("PUT");
                return new Sample(job.data().seq(), Long.parseLong(put.get(1)), Long.parseLong(put.get(2)),
                        returned, Long.parseLong(put.get(3)));
            }

            @Override
            public void close() {
                try {
                    child.send("EXIT");
                    child.awaitSuccess();
                } finally {
                    child.close();
                }
            }
        };
    }
}
