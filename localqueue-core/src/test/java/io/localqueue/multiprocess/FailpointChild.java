package io.localqueue.multiprocess;

import io.localqueue.EnqueueItem;
import io.localqueue.ForeignJobs;
import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The main class of the child JVMs of {@link CrashFailpointTest}, with the line protocol of {@link QueueChild}: each
 * mode opens the queue {@code default} of the directory in its first argument, prints {@value QueueChild#READY},
 * waits for {@value QueueChild#GO} and then makes exactly one call, the write transaction under test, which the
 * failpoint armed by the JVM's flags is expected to halt. A child that survives its call prints
 * {@value QueueChild#DONE} and exits with status 0, which the test reports as a failpoint that never fired.
 */
final class FailpointChild {

    static final String PUT = "put";
    static final String PUT_MANY = "put-many";
    static final String GET = "get";
    static final String ACK = "ack";
    /** Acks several deliveries from as many threads released together, so the settlements share a commit. */
    static final String ACK_TOGETHER = "ack-together";
    static final String NACK = "nack";
    static final String FAIL = "fail";
    static final String EXTEND_LEASE = "extend-lease";
    static final String RECLAIM = "reclaim";
    static final String RETRY_FAILED = "retry-failed";
    static final String PURGE = "purge";
    static final String VACUUM = "vacuum";
    static final String BACKUP = "backup";
    /** Opens the directory only after {@value QueueChild#GO}: the opening is the call, creating or migrating. */
    static final String OPEN = "open";

    static final String PUT_JOB_ID = "crash-put";
    static final List<String> PUT_MANY_JOB_IDS = List.of("crash-many-0", "crash-many-1", "crash-many-2");
    static final Duration NACK_DELAY = Duration.ofHours(1);
    static final String NACK_ERROR = "IOException: crash nack";
    static final String FAIL_ERROR = "crash fail";
    static final Duration EXTENDED_LEASE = Duration.ofHours(1);
    /** Purges acked and failed jobs last changed longer ago than this. */
    static final Duration PURGE_OLDER_THAN = Duration.ofMinutes(30);

    private final ChildProtocol protocol;

    private FailpointChild(ChildProtocol protocol) {
        this.protocol = protocol;
    }

    public static void main(String[] args) throws Exception {
        new FailpointChild(ChildProtocol.onStdout()).run(args);
        System.exit(0);
    }

    private void run(String[] args) throws IOException {
        Path directory = Path.of(args[1]);
        if (args[0].equals(OPEN)) {
            protocol.ready();
            try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
                protocol.print(QueueChild.DONE, queue.name());
            }
            return;
        }
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            protocol.print(QueueChild.DONE, call(queue, args));
        }
    }

    /** Makes the one call of the mode in {@code args[0]} and returns what it returned. */
    private static Object call(SimpleQueue<Object> queue, String[] args) {
        return switch (args[0]) {
            case PUT -> queue.put(PUT_JOB_ID, PUT_JOB_ID);
            case PUT_MANY -> queue.putMany(PUT_MANY_JOB_IDS.stream().map(id -> EnqueueItem.<Object>of(id, id)).toList());
            case GET -> queue.getNowait().id();
            case ACK -> {
                queue.ack(delivery(queue, args));
                yield "acked";
            }
            case ACK_TOGETHER -> {
                ackTogether(queue, args);
                yield "acked";
            }
            case NACK -> {
                queue.nack(delivery(queue, args), NACK_DELAY, NACK_ERROR);
                yield "nacked";
            }
            case FAIL -> {
                queue.fail(delivery(queue, args), FAIL_ERROR);
                yield "failed";
            }
            case EXTEND_LEASE -> queue.extendLease(delivery(queue, args), EXTENDED_LEASE);
            case RECLAIM -> queue.reclaimExpiredLeases();
            case RETRY_FAILED -> {
                queue.retryFailed(Long.parseLong(args[2]));
                yield "retried";
            }
            case PURGE -> queue.purge(PURGE_OLDER_THAN, true);
            case VACUUM -> {
                queue.vacuum();
                yield "vacuumed";
            }
            case BACKUP -> queue.backup(Path.of(args[2])).pageCount();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        };
    }

    /** The delivery whose id and receipt follow the directory in the arguments. */
    private static Job<Object> delivery(SimpleQueue<Object> queue, String[] args) {
        return delivery(queue, args, 2);
    }

    private static Job<Object> delivery(SimpleQueue<Object> queue, String[] args, int first) {
        return ForeignJobs.of(queue, Long.parseLong(args[first]), args[first + 1]);
    }

    /** Acks the deliveries given as id receipt pairs, each on its own thread, all released by one barrier. */
    private static void ackTogether(SimpleQueue<Object> queue, String[] args) {
        int count = (args.length - 2) / 2;
        CyclicBarrier start = new CyclicBarrier(count);
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Job<Object> job = delivery(queue, args, 2 + 2 * i);
            acks.add(CompletableFuture.runAsync(() -> {
                await(start);
                queue.ack(job);
            }, runnable -> new Thread(runnable, "ack-" + job.id()).start()));
        }
        acks.forEach(CompletableFuture::join);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException failure) {
            throw new IllegalStateException("the ack threads were not released together", failure);
        }
    }
}
