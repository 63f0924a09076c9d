package io.localqueue.multiprocess;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.FailedMessage;
import io.localqueue.Job;
import io.localqueue.JobNotFoundException;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The child JVM of {@link MaintenanceCrashTest}: prints {@value QueueChild#READY} once started, waits for
 * {@value QueueChild#GO} and the line that names its queue directory, its ledger file and its seed (separated by
 * tabs; the directory may be a PostgreSQL schema instead, see {@link #database(String)}), then opens the queue, the
 * first to open it since the last kill, and loops over random operations drawn from
 * the seed until it is killed: replaying a dead letter from a random page of the list, claiming and failing,
 * acknowledging or nacking, purging every acknowledged row and vacuuming. Before each {@code ack} it appends the
 * job's id to the ledger file, so that the test can tell an acknowledgement this process asked for from one nobody
 * asked for. The ledger is written with plain {@code write} calls: a killed process loses nothing the kernel has
 * already taken.
 */
final class MaintenanceChild {

    /** The policy of every process on the test's queue: a short lease, several retries. */
    static final DeliveryPolicy DELIVERY = new DeliveryPolicy(Duration.ofSeconds(1), 5);

    private MaintenanceChild() {
    }

    public static void main(String[] args) throws Exception {
        ChildProtocol protocol = ChildProtocol.onStdout();
        warmUp();
        protocol.ready();
        String work = protocol.nextCommand();
        if (work == null) {
            return; // the test ended before it needed this child
        }
        String[] words = work.split("\t");
        Random random = new Random(Long.parseLong(words[2]));
        try (FileChannel ledger = FileChannel.open(Path.of(words[1]), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND);
             LocalQueueDatabase database = database(words[0]);
             SimpleQueue<Object> queue = open(database)) {
            while (true) {
                step(queue, ledger, random);
            }
        }
    }

    /**
     * Runs the same operations on a scratch queue of its own first, so that the work after {@link QueueChild#GO}
     * starts at once instead of loading classes while the kill's moment passes.
     */
    private static void warmUp() throws IOException {
        Path scratch = Files.createTempDirectory("maintenance-warm-up-");
        Random random = new Random(0);
        try (FileChannel ledger = FileChannel.open(scratch.resolve("ledger"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND);
             LocalQueueDatabase database = database(scratch.resolve("queue").toString());
             SimpleQueue<Object> queue = open(database)) {
            queue.putMany(IntStream.range(0, 40).mapToObj(i -> EnqueueItem.<Object>of("warm-up " + i)).toList());
            for (int i = 0; i < 80; i++) {
                step(queue, ledger, random);
            }
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * Opens where a queue lives: a directory, or a PostgreSQL schema written as {@code <jdbc url>|<schema>}.
     */
    static LocalQueueDatabase database(String target) {
        int bar = target.indexOf('|');
        if (target.startsWith("jdbc:") && bar > 0) {
            return LocalQueueDatabase.server(target.substring(0, bar)).schema(target.substring(bar + 1)).poolSize(3)
                    .open();
        }
        return LocalQueueDatabase.open(Path.of(target));
    }

    static SimpleQueue<Object> open(LocalQueueDatabase database) {
        return SimpleQueue.builder(database).name("maintenance").delivery(DELIVERY).build();
    }

    /** One random operation; a lost lease or a job someone else moved is part of the game. */
    static void step(SimpleQueue<Object> queue, FileChannel ledger, Random random) throws IOException {
        int draw = random.nextInt(100);
        try {
            if (draw < 20) {
                replayOneDeadLetter(queue, random);
            } else if (draw < 80) {
                Job<Object> job = queue.getNowait();
                if (draw < 45) {
                    queue.fail(job, "failed on purpose");
                } else if (draw < 70) {
                    record(ledger, job.id());
                    queue.ack(job);
                } else {
                    queue.nack(job);
                }
            } else if (draw < 92) {
                queue.purge(Duration.ZERO);
            } else {
                queue.vacuum();
            }
        } catch (QueueEmptyException | LeaseExpiredException | JobNotFoundException expected) {
            // nothing due, a lease lost to the clock, or a dead letter replayed already
        }
    }

    private static void replayOneDeadLetter(SimpleQueue<Object> queue, Random random) {
        List<FailedMessage<Object>> page = queue.listFailed(20, random.nextInt(500));
        if (!page.isEmpty()) {
            queue.retryFailed(page.get(random.nextInt(page.size())).id());
        }
    }

    /** Appends {@code id} to the ledger before its acknowledgement is asked for. */
    static void record(FileChannel ledger, long id) throws IOException {
        ByteBuffer line = ByteBuffer.wrap((id + "\n").getBytes(UTF_8));
        while (line.hasRemaining()) {
            ledger.write(line);
        }
    }
}
