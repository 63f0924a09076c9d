package io.localqueue.multiprocess;

import io.localqueue.BackupResult;
import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The main class of the child JVMs of the backup tests, with the same line protocol as {@link QueueChild}: every
 * mode opens its queue, prints {@value QueueChild#READY}, waits for {@value QueueChild#GO} and then prints one event
 * per line. The looping modes run until the test sends {@value #STOP}; the end of stdin (the test JVM is gone) stops
 * them too and ends the child with status 3.
 */
final class BackupChild {

    static final String STOP = "STOP";
    static final String BATCH = "BATCH";
    static final String BACKED_UP = "BACKED_UP";
    static final String EXISTS = "EXISTS";
    static final String STATS = "STATS";

    /** Commits batches of job ids {@code b<batch>-<item>} with {@code putMany} until stopped; prints BATCH n. */
    static final String PRODUCE_BATCHES = "produce-batches";
    /** Claims and acks until stopped; prints ACKED id per job. */
    static final String CONSUME_UNTIL_STOPPED = "consume-until-stopped";
    /** Backs the queue up once; prints BACKED_UP pageCount, or EXISTS and the cause's class name. */
    static final String BACKUP = "backup";
    /** Reports stats, claims and acks one job and puts a new one, printing each step. */
    static final String CLAIM_ACK_PUT = "claim-ack-put";

    private final ChildProtocol protocol;
    private volatile boolean stopped;
    private volatile boolean orphaned;

    private BackupChild(ChildProtocol protocol) {
        this.protocol = protocol;
    }

    public static void main(String[] args) throws Exception {
        BackupChild child = new BackupChild(ChildProtocol.onStdout());
        child.run(args);
        System.exit(child.orphaned ? 3 : 0);
    }

    private void run(String[] args) throws IOException {
        Path directory = Path.of(args[1]);
        switch (args[0]) {
            case PRODUCE_BATCHES -> produceBatches(directory, Integer.parseInt(args[2]));
            case CONSUME_UNTIL_STOPPED -> consumeUntilStopped(directory);
            case BACKUP -> backup(directory, Path.of(args[2]));
            case CLAIM_ACK_PUT -> claimAckPut(directory);
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private void produceBatches(Path directory, int batchSize) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            watchForStop();
            int batch = 0;
            while (!stopped) {
                List<EnqueueItem<Object>> items = new ArrayList<>(batchSize);
                for (int item = 0; item < batchSize; item++) {
                    items.add(EnqueueItem.of("payload-" + batch + "-" + item, "b" + batch + "-" + item));
                }
                queue.putMany(items);
                protocol.print(BATCH, batch);
                batch++;
            }
            protocol.print(QueueChild.DONE, batch);
        }
    }

    private void consumeUntilStopped(Path directory) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            watchForStop();
            int count = 0;
            while (!stopped) {
                Job<Object> job;
                try {
                    job = queue.get(Duration.ofMillis(100));
                } catch (QueueEmptyException empty) {
                    continue;
                }
                queue.ack(job);
                protocol.print(QueueChild.ACKED, job.id());
                count++;
            }
            protocol.print(QueueChild.DONE, count);
        }
    }

    private void backup(Path directory, Path destination) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            try {
                BackupResult result = queue.backup(destination);
                protocol.print(BACKED_UP, result.pageCount());
            } catch (LocalQueueException failure) {
                if (!(failure.getCause() instanceof FileAlreadyExistsException)) {
                    throw failure;
                }
                protocol.print(EXISTS, failure.getCause().getClass().getName());
            }
        }
    }

    private void claimAckPut(Path directory) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            protocol.ready();
            printStats(queue.stats());
            Job<Object> job = queue.getNowait();
            protocol.print(QueueChild.CLAIMED, job.id(), job.attempts(), job.data());
            queue.ack(job);
            protocol.print(QueueChild.ACKED, job.id());
            protocol.print(QueueChild.PUT, queue.put("added-by-child"));
            printStats(queue.stats());
        }
    }

    private void printStats(QueueStats stats) {
        protocol.print(STATS, stats.ready(), stats.processing(), stats.acked(), stats.failed());
    }

    /** Reads stdin on a daemon thread and releases the loop on STOP or when the test JVM goes away. */
    private void watchForStop() {
        Thread watcher = new Thread(() -> {
            try {
                String line;
                while ((line = protocol.nextCommand()) != null) {
                    if (line.equals(STOP)) {
                        stopped = true;
                        return;
                    }
                    System.err.println("ignoring unexpected command " + line);
                }
            } catch (IOException closed) {
                // treated like the end of stdin below
            }
            orphaned = true;
            stopped = true;
        }, "stop-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
