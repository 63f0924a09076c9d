package io.localqueue.internal.store.postgresql;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.localqueue.DeliveryPolicy;
import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.WorkerObserver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The main class of the child JVMs that play the hosts of one PostgreSQL database: each opens the database by URL
 * as an application does ({@code LocalQueueDatabase.server(url).schema(schema).poolSize(4)}), prints {@value #READY},
 * waits for {@value #GO} on stdin and then prints one event per line on stdout. An unexpected exception ends the
 * child with a stack trace on stderr and a non-zero status; the end of stdin (the test JVM is gone) ends it with
 * status 3.
 */
final class HostChild {

    static final String READY = "READY";
    static final String GO = "GO";
    static final String STOP = "STOP";
    static final String ACK = "ACK";
    static final String ACKED = "ACKED";
    static final String CLAIMED = "CLAIMED";
    static final String PUT = "PUT";
    static final String FULL = "FULL";
    static final String DONE = "DONE";

    /** {@code work url schema queue concurrency workMillis}: a worker until told STOP. */
    static final String WORK = "work";
    /** {@code produce url schema queue limit attempts timeoutMillis}: that many puts against the limit. */
    static final String PRODUCE = "produce";
    /** {@code claim url schema queue leaseMillis}: claims one job, acks it when told ACK. */
    static final String CLAIM = "claim";

    private final PrintStream events;
    private final BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, UTF_8));

    private HostChild(PrintStream events) {
        this.events = events;
    }

    public static void main(String[] args) throws Exception {
        // Stdout carries the protocol only; logging that writes to System.out lands on stderr.
        PrintStream events = new PrintStream(System.out, true, UTF_8);
        System.setOut(System.err);
        new HostChild(events).run(args);
        System.exit(0);
    }

    private void run(String[] args) throws IOException {
        String mode = args[0];
        try (LocalQueueDatabase database = LocalQueueDatabase.server(args[1]).schema(args[2]).poolSize(4).open()) {
            switch (mode) {
                case WORK -> work(database, args[3], Integer.parseInt(args[4]), Long.parseLong(args[5]));
                case PRODUCE -> produce(database, args[3], Long.parseLong(args[4]), Integer.parseInt(args[5]),
                        Long.parseLong(args[6]));
                case CLAIM -> claim(database, args[3], Long.parseLong(args[4]));
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
    }

    /**
     * Runs a worker of {@code concurrency} threads whose handler works {@code workMillis} per job; prints
     * ACKED id attempts for each job whose acknowledgement committed, and once told STOP, DONE count.
     */
    private void work(LocalQueueDatabase database, String name, int concurrency, long workMillis) throws IOException {
        try (SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name(name).build()) {
            AtomicInteger acked = new AtomicInteger();
            WorkerObserver observer = new WorkerObserver() {
                @Override
                public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime,
                                        @Nullable Throwable error) {
                    if (outcome == JobOutcome.ACKED) {
                        acked.incrementAndGet();
                        print(ACKED, job.id(), job.attempts());
                    }
                }
            };
            Worker<String> worker = Worker.builder(queue, job -> LockSupport.parkNanos(workMillis * 1_000_000))
                    .concurrency(concurrency).observer(observer).build();
            ready();
            worker.start();
            await(STOP);
            worker.stop(Duration.ofSeconds(30));
            print(DONE, acked.get());
        }
    }

    /** Makes {@code attempts} puts, each waiting at most {@code timeoutMillis} for room; prints PUT id or FULL each. */
    private void produce(LocalQueueDatabase database, String name, long limit, int attempts, long timeoutMillis)
            throws IOException {
        try (SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name(name).maxPendingJobs(limit)
                .build()) {
            ready();
            int accepted = 0;
            for (int i = 0; i < attempts; i++) {
                try {
                    print(PUT, queue.put("from-" + ProcessHandle.current().pid() + "-" + i, null,
                            Duration.ofMillis(timeoutMillis)));
                    accepted++;
                } catch (QueueFullException full) {
                    print(FULL);
                }
            }
            print(DONE, accepted);
        }
    }

    /**
     * Claims one job with a lease of {@code leaseMillis}, waiting up to a minute; prints CLAIMED id attempts receipt
     * claimedAtMillis leaseExpiresAtMillis, then acks it when told ACK and prints ACKED id.
     */
    private void claim(LocalQueueDatabase database, String name, long leaseMillis) throws IOException {
        DeliveryPolicy delivery = DeliveryPolicy.defaults().withLease(Duration.ofMillis(leaseMillis));
        try (SimpleQueue<String> queue = SimpleQueue.builder(database, String.class).name(name).delivery(delivery)
                .build()) {
            ready();
            Job<String> job = queue.get(Duration.ofSeconds(60));
            print(CLAIMED, job.id(), job.attempts(), job.receipt(), System.currentTimeMillis(),
                    job.leaseExpiresAt().toEpochMilli());
            await(ACK);
            queue.ack(job);
            print(ACKED, job.id());
        }
    }

    private void print(Object... words) {
        events.println(Arrays.stream(words).map(String::valueOf).collect(Collectors.joining(" ")));
    }

    private void ready() throws IOException {
        print(READY);
        await(GO);
    }

    private void await(String command) throws IOException {
        String line = commands.readLine();
        if (line == null) {
            System.err.println("stdin closed while waiting for " + command + "; the test JVM is gone");
            System.exit(3);
        }
        if (!line.equals(command)) {
            throw new IllegalStateException("expected command " + command + " but got " + line);
        }
    }
}
