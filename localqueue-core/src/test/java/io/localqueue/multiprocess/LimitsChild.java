package io.localqueue.multiprocess;

import io.localqueue.DeliveryPolicy;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link MultiProcessLimitsTest}: opens the test's queue with the limits its arguments give, prints
 * {@value QueueChild#READY} and waits for {@value QueueChild#GO}; in mode {@value #WORK}, it then runs a worker, printing {@value #RAN} id key claimedAt start
 * end (epoch milliseconds, then microseconds) for every job it handles until told {@value QueueChild#STOP}; in mode
 * {@value #CLAIM_ONE}, claims one job, prints {@value QueueChild#CLAIMED} id, and holds it until killed.
 */
final class LimitsChild {

    static final String WORK = "work-limited";
    static final String CLAIM_ONE = "claim-one";
    static final String RAN = "RAN";
    static final String QUEUE = "limited";

    private LimitsChild() {
    }

    /** The limits every process opens the test's queue with. */
    record Limits(int maxConcurrent, int maxConcurrentPerKey, int ratePermits, long ratePeriodMillis,
                  long leaseMillis) {

        Object[] arguments() {
            return new Object[] {maxConcurrent, maxConcurrentPerKey, ratePermits, ratePeriodMillis, leaseMillis};
        }

        static Limits parse(String[] args, int first) {
            return new Limits(Integer.parseInt(args[first]), Integer.parseInt(args[first + 1]),
                    Integer.parseInt(args[first + 2]), Long.parseLong(args[first + 3]), Long.parseLong(args[first + 4]));
        }

        SimpleQueue<Object> open(LocalQueueDatabase database) {
            SimpleQueue.Builder<Object> builder = SimpleQueue.builder(database).name(QUEUE)
                    .delivery(DeliveryPolicy.defaults().withLease(Duration.ofMillis(leaseMillis)))
                    .maxConcurrent(maxConcurrent).maxConcurrentPerKey(maxConcurrentPerKey);
            if (ratePermits > 0) {
                builder.rateLimit(ratePermits, Duration.ofMillis(ratePeriodMillis));
            }
            return builder.build();
        }
    }

    /**
     * Arguments: the mode, where the queue lives ({@link MaintenanceChild#database}), then for {@value #WORK} the
     * worker's threads and each job's work in milliseconds, then the {@link Limits}.
     */
    public static void main(String[] args) throws Exception {
        ChildProtocol protocol = ChildProtocol.onStdout();
        String mode = args[0];
        try (LocalQueueDatabase database = MaintenanceChild.database(args[1])) {
            if (mode.equals(CLAIM_ONE)) {
                try (SimpleQueue<Object> queue = Limits.parse(args, 2).open(database)) {
                    protocol.ready();
                    Job<Object> job = queue.get(Duration.ofSeconds(30));
                    protocol.print(QueueChild.CLAIMED, job.id());
                    new CountDownLatch(1).await();
                }
                return;
            }
            int threads = Integer.parseInt(args[2]);
            long workMillis = Long.parseLong(args[3]);
            try (SimpleQueue<Object> queue = Limits.parse(args, 4).open(database)) {
                Worker<Object> worker = Worker.builder(queue, job -> {
                    long start = micros(Instant.now());
                    LockSupport.parkNanos(Duration.ofMillis(workMillis).toNanos());
                    long end = micros(Instant.now());
                    protocol.print(RAN, job.id(), job.concurrencyKey() == null ? "-" : job.concurrencyKey(),
                            job.claimedAt().toEpochMilli(), start, end);
                }).concurrency(threads).build();
                protocol.ready();
                worker.start();
                protocol.await(QueueChild.STOP);
                worker.stop(Duration.ofSeconds(30));
                protocol.print(QueueChild.DONE);
            }
        }
        System.exit(0);
    }

    private static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }
}
