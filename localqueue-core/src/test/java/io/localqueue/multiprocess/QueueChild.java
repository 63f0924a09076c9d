package io.localqueue.multiprocess;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.ForeignJobs;
import io.localqueue.Job;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueFullException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * The main class of the child JVMs: one mode per scenario, chosen by the first argument. Every mode opens what it
 * needs, prints {@value #READY}, waits for {@value #GO} on stdin (the start barrier) and then prints one event per
 * line on stdout. Any unexpected exception ends the child with a stack trace on stderr and a non-zero status; the
 * end of stdin (the test JVM is gone) ends it with status 3.
 */
final class QueueChild {

    static final String READY = "READY";
    static final String GO = "GO";
    static final String CLAIMED = "CLAIMED";
    static final String ACK = "ACK";
    static final String ACKED = "ACKED";
    static final String DONE = "DONE";
    static final String PUT = "PUT";
    static final String FULL = "FULL";
    static final String LEASE_EXPIRED = "LEASE_EXPIRED";
    static final String LOCKED = "LOCKED";
    static final String HELD = "HELD";
    static final String RELEASE = "RELEASE";
    static final String RELEASED = "RELEASED";
    static final String OPENED = "OPENED";

    static final String STOP = "STOP";
    static final String NEXT = "NEXT";
    static final String WAITING = "WAITING";
    static final String HANDLED = "HANDLED";
    static final String STARTED = "STARTED";
    static final String FINISH = "FINISH";

    static final String CONSUME = "consume";
    static final String WORK = "work";
    static final String HOLD = "hold";
    static final String WAIT_ON_QUEUES = "wait-on-queues";
    static final String PUT_WITH_JOB_ID = "put-with-job-id";
    static final String PUT_MANY_WITH_JOB_IDS = "put-many-with-job-ids";
    static final String PUT_ONCE_AGAINST_LIMIT = "put-once-against-limit";
    static final String PUT_BATCH_AGAINST_LIMIT = "put-batch-against-limit";
    static final String PUT_ONE = "put-one";
    static final String PUT_DELAYED = "put-delayed";
    static final String RUN_RETENTION = "run-retention";
    static final String PAUSE_QUEUE = "pause-queue";
    static final String RESUME_QUEUE = "resume-queue";
    static final String PAUSED = "PAUSED";
    static final String CLAIM_AND_WAIT = "claim-and-wait";
    static final String ACK_FOREIGN = "ack-foreign";
    static final String HOLD_WRITE_LOCK = "hold-write-lock";
    static final String HOLD_WRITERS_LINE = "hold-writers-line";
    static final String OPEN = "open";

    private final ChildProtocol protocol;
    private final String payload = "from-" + ProcessHandle.current().pid();

    private QueueChild(ChildProtocol protocol) {
        this.protocol = protocol;
    }

    public static void main(String[] args) throws Exception {
        new QueueChild(ChildProtocol.onStdout()).run(args);
        System.exit(0);
    }

    private void run(String[] args) throws Exception {
        String mode = args[0];
        switch (mode) {
            case CONSUME -> consume(Path.of(args[1]));
            case WAIT_ON_QUEUES -> waitOnQueues(Path.of(args[1]), List.of(args).subList(2, args.length));
            case WORK -> work(Path.of(args[1]), Integer.parseInt(args[2]), Duration.ofMillis(Long.parseLong(args[3])));
            case HOLD -> hold(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), Duration.ofMillis(Long.parseLong(args[5])));
            case PUT_WITH_JOB_ID -> putWithJobId(Path.of(args[1]), args[2]);
            case PUT_MANY_WITH_JOB_IDS -> putManyWithJobIds(Path.of(args[1]), Integer.parseInt(args[2]));
            case PUT_ONCE_AGAINST_LIMIT -> putOnceAgainstLimit(Path.of(args[1]), Long.parseLong(args[2]));
            case PUT_BATCH_AGAINST_LIMIT ->
                    putBatchAgainstLimit(Path.of(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]));
            case PUT_ONE -> putOne(Path.of(args[1]));
            case PUT_DELAYED -> putDelayed(Path.of(args[1]), Duration.ofMillis(Long.parseLong(args[2])));
            case RUN_RETENTION -> runRetention(Path.of(args[1]), Integer.parseInt(args[2]));
            case PAUSE_QUEUE, RESUME_QUEUE -> pauseOrResume(Path.of(args[1]), mode.equals(PAUSE_QUEUE));
            case CLAIM_AND_WAIT -> claimAndWait(Path.of(args[1]), args[2], Duration.ofMillis(Long.parseLong(args[3])));
            case ACK_FOREIGN -> ackForeign(Path.of(args[1]), args[2], Long.parseLong(args[3]), args[4]);
            case HOLD_WRITE_LOCK -> holdWriteLock(Path.of(args[1]), Long.parseLong(args[2]));
            case HOLD_WRITERS_LINE -> holdWritersLine(Path.of(args[1]));
            case OPEN -> open(Path.of(args[1]));
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    /** Claims and acks until the queue stays empty for a second; prints CLAIMED id attempts, ACKED id, DONE count. */
    private void consume(Path directory) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            int count = 0;
            while (true) {
                Job<Object> job;
                try {
                    job = queue.get(Duration.ofSeconds(1));
                } catch (QueueEmptyException empty) {
                    break;
                }
                protocol.print(CLAIMED, job.id(), job.attempts());
                queue.ack(job);
                protocol.print(ACKED, job.id());
                count++;
            }
            protocol.print(DONE, count);
        }
    }

    /**
     * Waits for one job in each of {@code names}, each on a thread of its own started in that order once the
     * previous one is waiting (told NEXT), and prints CLAIMED name id for each job it gets; ends when told STOP.
     */
    private void waitOnQueues(Path directory, List<String> names) throws Exception {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(directory)) {
            protocol.ready();
            for (String name : names) {
                SimpleQueue<Object> queue = SimpleQueue.builder(database).name(name).build();
                Thread waiter = new Thread(() -> {
                    try {
                        Job<Object> job = queue.get(Duration.ofSeconds(60));
                        protocol.print(CLAIMED, name, job.id());
                        queue.ack(job);
                    } catch (QueueEmptyException | QueueClosedException ended) {
                        // the test ended first
                    }
                }, "waiter-" + name);
                waiter.setDaemon(true);
                waiter.start();
                protocol.print(WAITING, name);
                protocol.await(name.equals(names.get(names.size() - 1)) ? STOP : NEXT);
            }
        }
    }

    /**
     * Runs a worker with {@code concurrency} threads whose handler works for {@code work} per job, until told STOP;
     * prints HANDLED id for each job, then DONE count.
     */
    private void work(Path directory, int concurrency, Duration work) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            AtomicInteger handled = new AtomicInteger();
            Worker<Object> worker = Worker.builder(queue, job -> {
                LockSupport.parkNanos(work.toNanos());
                protocol.print(HANDLED, job.id());
                handled.incrementAndGet();
            }).concurrency(concurrency).build();
            protocol.ready();
            worker.start();
            protocol.await(STOP);
            worker.stop(Duration.ofSeconds(30));
            protocol.print(DONE, handled.get());
        }
    }

    /**
     * Runs a worker of {@code concurrency} threads with the given prefetch on a queue whose lease is {@code lease}: its
     * handler returns at once for the first {@code quick} jobs (so that its claims take jobs ahead), then prints
     * STARTED id for each further job and holds it until told FINISH. Prints HANDLED id attempts for each job it
     * returns from, and once told STOP, DONE count.
     */
    private void hold(Path directory, int concurrency, int prefetch, int quick, Duration lease) throws IOException {
        DeliveryPolicy delivery = DeliveryPolicy.defaults().withLease(lease);
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).delivery(delivery).build()) {
            AtomicInteger entered = new AtomicInteger();
            AtomicInteger handled = new AtomicInteger();
            CountDownLatch finish = new CountDownLatch(1);
            Worker<Object> worker = Worker.builder(queue, job -> {
                if (entered.incrementAndGet() > quick) {
                    protocol.print(STARTED, job.id());
                    finish.await();
                }
                protocol.print(HANDLED, job.id(), job.attempts());
                handled.incrementAndGet();
            }).concurrency(concurrency).prefetch(prefetch).build();
            protocol.ready();
            worker.start();
            protocol.await(FINISH);
            finish.countDown();
            protocol.await(STOP);
            worker.stop(Duration.ofSeconds(30));
            protocol.print(DONE, handled.get());
        }
    }

    private void putWithJobId(Path directory, String jobId) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            protocol.print(PUT, queue.put(payload, jobId));
        }
    }

    /** Puts job ids job-0 … job-(count-1) in one batch and prints PUT with the comma-separated ids. */
    private void putManyWithJobIds(Path directory, int count) throws IOException {
        List<EnqueueItem<Object>> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(EnqueueItem.of(payload, "job-" + i));
        }
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            protocol.print(PUT, join(queue.putMany(items)));
        }
    }

    private void putOnceAgainstLimit(Path directory, long limit) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).maxPendingJobs(limit).build()) {
            protocol.ready();
            try {
                protocol.print(PUT, queue.put(payload, null, Duration.ZERO));
            } catch (QueueFullException full) {
                protocol.print(FULL);
            }
        }
    }

    private void putBatchAgainstLimit(Path directory, long limit, int batchSize) throws IOException {
        List<EnqueueItem<Object>> items = new ArrayList<>();
        for (int i = 0; i < batchSize; i++) {
            items.add(EnqueueItem.of(payload + "-" + i));
        }
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).maxPendingJobs(limit).build()) {
            protocol.ready();
            try {
                protocol.print(PUT, join(queue.putMany(items, Duration.ZERO)));
            } catch (QueueFullException full) {
                protocol.print(FULL);
            }
        }
    }

    private void putOne(Path directory) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            protocol.print(PUT, queue.put(payload), payload);
        }
    }

    /** Pauses or resumes the default queue for every process; prints PAUSED with whether it is paused after. */
    private void pauseOrResume(Path directory, boolean pause) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            if (pause) {
                queue.pause();
            } else {
                queue.resume();
            }
            protocol.print(PAUSED, queue.isPaused());
        }
    }

    /**
     * Runs the default queue's retention (finished jobs kept no time at all) {@code runs} times in a row when told
     * to; prints DONE with the rows it deleted and the runs another process's turn kept it out of.
     */
    private void runRetention(Path directory, int runs) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).retention(Duration.ZERO, Duration.ZERO)
                .build()) {
            protocol.ready();
            long deleted = 0;
            int keptOut = 0;
            for (int run = 0; run < runs; run++) {
                long result = queue.runRetention();
                if (result < 0) {
                    keptOut++;
                } else {
                    deleted += result;
                }
            }
            protocol.print(DONE, deleted, keptOut);
        }
    }

    /** Puts one job due {@code delay} from now when told to; prints PUT id payload due-epoch-millis. */
    private void putDelayed(Path directory, Duration delay) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            Instant due = Instant.now().plus(delay);
            protocol.print(PUT, queue.put(payload, null, EnqueueOptions.defaults().runAt(due)), payload,
                    due.toEpochMilli());
        }
    }

    /** Claims one job, prints CLAIMED id attempts receipt, and acks it only when told to. */
    private void claimAndWait(Path directory, String name, Duration lease) throws IOException {
        DeliveryPolicy delivery = DeliveryPolicy.defaults().withLease(lease);
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).name(name).delivery(delivery).build()) {
            protocol.ready();
            Job<Object> job = queue.get(Duration.ofSeconds(30));
            protocol.print(CLAIMED, job.id(), job.attempts(), job.receipt());
            protocol.await(ACK);
            queue.ack(job);
            protocol.print(ACKED, job.id());
        }
    }

    /** Acks, through a queue of another name, a delivery claimed elsewhere; prints LEASE_EXPIRED or ACKED. */
    private void ackForeign(Path directory, String name, long id, String receipt) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).name(name).build()) {
            protocol.ready();
            try {
                queue.ack(ForeignJobs.of(queue, id, receipt));
                protocol.print(ACKED, id);
            } catch (LeaseExpiredException expired) {
                protocol.print(LEASE_EXPIRED, id);
            }
        }
    }

    /**
     * Takes SQLite's write lock with a raw connection and keeps it for {@code holdMillis}, longer than SQLite's busy
     * timeout, like a slow writer would; then reports HELD and commits once told to RELEASE.
     */
    private void holdWriteLock(Path file, long holdMillis) throws IOException, SQLException, InterruptedException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            protocol.ready();
            statement.execute("BEGIN IMMEDIATE");
            protocol.print(LOCKED);
            Thread.sleep(holdMillis); // simulates the slow writer itself; nothing is awaited here
            protocol.print(HELD);
            protocol.await(RELEASE);
            statement.execute("COMMIT");
            protocol.print(RELEASED);
        }
    }

    /**
     * Takes the operating-system lock that this library's writers line up for, as a process in the middle of a
     * write holds it, and keeps it until told to RELEASE.
     */
    private void holdWritersLine(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            protocol.ready();
            try (FileLock lock = channel.lock()) {
                protocol.print(LOCKED);
                protocol.await(RELEASE);
            }
            protocol.print(RELEASED);
        }
    }

    /**
     * Opens a queue on {@code directory} only once told to GO, having first loaded every class and the SQLite native
     * library on a scratch queue, so that children released together open the file at nearly the same moment;
     * prints OPENED with the stats ready processing acked failed.
     */
    private void open(Path directory) throws IOException {
        Path warmUp = Files.createTempDirectory("warm-up-");
        try (SimpleQueue<Object> scratch = SimpleQueue.builder(warmUp).build()) {
            scratch.stats();
        }
        protocol.ready();
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            QueueStats stats = queue.stats();
            protocol.print(OPENED, stats.ready(), stats.processing(), stats.acked(), stats.failed());
        }
    }

    private static String join(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
