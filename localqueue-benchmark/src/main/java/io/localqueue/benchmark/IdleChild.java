package io.localqueue.benchmark;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.time.Duration;

/**
 * Measures the CPU an idle subject costs: the process's CPU time over wall time first without it, then with it
 * waiting for work: a {@link Worker} (default poll interval) on an empty queue ({@value #WORKER}), or
 * {@value #SCHEDULES} recurring jobs whose ticks do not fall in the measurement, with their scheduler started
 * ({@value #RECURRING}); prints {@code IDLE <cpuNanosWithout> <wallNanosWithout> <cpuNanosWith> <wallNanosWith>}.
 */
final class IdleChild {

    static final String ROLE = "idle";

    /** The setting that names the subject. */
    static final String SUBJECT = "subject";

    /** The subject: an idle worker. */
    static final String WORKER = "worker";

    /** The subject: idle recurring jobs and their scheduler. */
    static final String RECURRING = "recurring";

    /** How many recurring jobs the {@value #RECURRING} subject has. */
    static final int SCHEDULES = 100;

    /** A cron whose ticks fall once a year, at 03:00 on 1 January (UTC): none during a measurement. */
    private static final String YEARLY = "0 0 3 1 1 *";

    /** The longest wait for start-up work (class loading, compilation) to die down before each measurement. */
    private static final Duration MAX_SETTLE = Duration.ofSeconds(1);

    private IdleChild() {
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        Duration idle = Duration.ofMillis(settings.number("millis"));
        long settleMillis = Math.min(MAX_SETTLE.toMillis(), idle.toMillis() / 2);
        try (SimpleQueue<BenchMessage> queue = settings.openQueue()) {
            queue.stats();
            Thread.sleep(settleMillis);
            long[] without = measure(idle);
            try (AutoCloseable subject = start(settings.text(SUBJECT), settings, queue)) {
                Thread.sleep(settleMillis);
                long[] with = measure(idle);
                io.emit("IDLE " + without[0] + " " + without[1] + " " + with[0] + " " + with[1]);
            }
        }
    }

    /** Starts the subject on the queue's database and returns what stops it. */
    private static AutoCloseable start(String subject, ChildSettings settings, SimpleQueue<BenchMessage> queue) {
        if (subject.equals(RECURRING)) {
            LocalQueueDatabase database = LocalQueueDatabase.open(settings.directory());
            RecurringJobs recurring = RecurringJobs.on(database);
            for (int i = 0; i < SCHEDULES; i++) {
                recurring.schedule(RecurringJob.builder("idle-" + i, YEARLY)
                        .enqueue(queue, BenchMessage.of(i, System.nanoTime())).build());
            }
            recurring.start();
            return () -> {
                recurring.close();
                database.close();
            };
        }
        Worker<BenchMessage> worker = Worker.builder(queue, job -> { }).build();
        worker.start();
        return () -> worker.stop(Duration.ofSeconds(10));
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
