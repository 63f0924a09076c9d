package io.localqueue.multiprocess;

import static io.localqueue.multiprocess.QueueChild.ACK;
import static io.localqueue.multiprocess.QueueChild.ACKED;
import static io.localqueue.multiprocess.QueueChild.CLAIMED;
import static io.localqueue.multiprocess.QueueChild.CLAIM_AND_WAIT;
import static io.localqueue.multiprocess.QueueChild.HANDLED;
import static io.localqueue.multiprocess.QueueChild.NEXT;
import static io.localqueue.multiprocess.QueueChild.GO;
import static io.localqueue.multiprocess.QueueChild.READY;
import static io.localqueue.multiprocess.QueueChild.STOP;
import static io.localqueue.multiprocess.QueueChild.WAITING;
import static io.localqueue.multiprocess.QueueChild.WAIT_ON_QUEUES;
import static io.localqueue.multiprocess.QueueChild.WORK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.sqlite.ClaimTurns;
import io.localqueue.internal.store.sqlite.SqliteQueueStore;
import io.localqueue.testsupport.ChildProcess;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Processes consuming one queue take turns: the one whose claim waits for work holds the queue's turn and the others
 * sleep until it lets go, which it does after its claim, to a waiting process after a short quantum, and at once when
 * it dies.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MultiProcessClaimTurnTest extends MultiProcessTestBase {

    private static final String QUEUE = "default";

    @Test
    void aJobPutWhileAnotherProcessHoldsTheTurnGoesToThatProcess() throws Exception {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build();
             FileChannel turns = turnFile()) {
            ChildProcess holder = startWaitingClaimer();
            awaitTurnHeldElsewhere(turns);

            CompletableFuture<Job<Object>> here = CompletableFuture.supplyAsync(
                    () -> queue.get(Duration.ofSeconds(3)));
            queue.put("the one job");

            List<String> claimed = holder.expect(CLAIMED);
            assertThat(here).failsWithin(Duration.ofSeconds(30))
                    .withThrowableThat().havingRootCause().isInstanceOf(QueueEmptyException.class);
            holder.send(ACK);
            holder.expect(ACKED, Duration.ofSeconds(30));
            holder.awaitSuccess();
            assertThat(queue.stats().acked()).as("job %s acked by the holder", claimed.get(0)).isEqualTo(1);
        }
    }

    @Test
    void twoProcessesEachHoldingOneQueuesTurnWhileWaitingForTheOthersKeepTheirTurns() throws Exception {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(dir);
             FileChannel turns = turnFile()) {
            SimpleQueue<Object> first = SimpleQueue.builder(database).name("first").build();
            SimpleQueue<Object> second = SimpleQueue.builder(database).name("second").build();
            CompletableFuture<Job<Object>> holdingFirst = CompletableFuture.supplyAsync(
                    () -> first.get(Duration.ofSeconds(60)));
            awaitTurnHeldHere(turns, "first");
            ChildProcess child = children.start("other", WAIT_ON_QUEUES, dir, "second", "first");
            child.expect(READY);
            child.send(GO);
            child.expect(WAITING);
            awaitTurnHeldElsewhere(turns, "second");
            child.send(NEXT);
            child.expect(WAITING); // the child now also waits for this JVM's turn of "first"

            // This JVM holds "first" and waits for "second", the child the other way round: a kernel that counts
            // locks per process would call it a deadlock, and the turn refused that way would be lost.
            CompletableFuture<Job<Object>> waitingForSecond = CompletableFuture.supplyAsync(
                    () -> second.get(Duration.ofSeconds(3)));
            second.put("for the holder of second");

            assertThat(child.expect(CLAIMED)).startsWith("second");
            assertThat(waitingForSecond).failsWithin(Duration.ofSeconds(30))
                    .withThrowableThat().havingRootCause().isInstanceOf(QueueEmptyException.class);
            first.put("for the holder of first");
            assertThat(holdingFirst.get(30, TimeUnit.SECONDS).data()).isEqualTo("for the holder of first");
            child.send(STOP);
            child.awaitSuccess();
        }
    }

    @Test
    void aKilledHolderLetsTheNextProcessClaimAtOnce() throws Exception {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build();
             FileChannel turns = turnFile()) {
            ChildProcess holder = startWaitingClaimer();
            awaitTurnHeldElsewhere(turns);

            holder.killHard();
            queue.put("after the holder died");

            // Far below the wait for a turn kept by a process that hangs: the dead one's lock went with it.
            Job<Object> job = queue.get(Duration.ofSeconds(20));
            assertThat(job.data()).isEqualTo("after the holder died");
            queue.ack(job);
        }
    }

    @Test
    void workersWhoseThreadsAreBusyLetTheOthersClaim() throws Exception {
        int jobs = 1_000;
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            // 2 ms of work per job: a process cannot take all the jobs before the other claims
            List<ChildProcess> workers = List.of(children.start("worker-a", WORK, dir, 4, 2),
                    children.start("worker-b", WORK, dir, 4, 2));
            ChildProcess.releaseTogether(workers);
            for (int i = 0; i < jobs; i++) {
                queue.put("job " + i);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> queue.stats().acked() == jobs);

            Set<Long> handled = new HashSet<>();
            List<Integer> counts = new ArrayList<>();
            for (ChildProcess worker : workers) {
                worker.send(STOP);
                int count = 0;
                for (String line : worker.linesUntilExit(Duration.ofSeconds(60))) {
                    String[] words = line.split(" ");
                    if (words[0].equals(HANDLED)) {
                        assertThat(handled.add(Long.parseLong(words[1]))).as("handled once: %s", line).isTrue();
                        count++;
                    }
                }
                counts.add(count);
            }
            assertThat(handled).hasSize(jobs);
            // A process whose threads are all busy gives the turn up at once; one keeping it would take every job.
            assertThat(counts).as("jobs per process").allSatisfy(count -> assertThat(count).isGreaterThan(jobs / 10));
        }
    }

    @Test
    void claimsGoAheadWhenTheTurnFileCannotBeUsed() throws Exception {
        Files.createDirectory(dir.resolve(SqliteQueueStore.FILE_NAME + ClaimTurns.SUFFIX));
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            queue.put("still delivered");

            Job<Object> job = queue.get(Duration.ofSeconds(10));

            assertThat(job.data()).isEqualTo("still delivered");
            queue.ack(job);
        }
    }

    /** Starts a child whose claim waits for work, so it takes the queue's turn and keeps it. */
    private ChildProcess startWaitingClaimer() {
        ChildProcess holder = children.start("holder", CLAIM_AND_WAIT, dir, QUEUE, 60_000);
        holder.expect(READY);
        holder.send(GO);
        return holder;
    }

    /** Waits until this JVM holds a queue's turn: locking its byte here overlaps a lock of this JVM's. */
    private static void awaitTurnHeldHere(FileChannel turns, String queue) {
        long position = ClaimTurns.position(queue);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try {
                FileLock probe = turns.tryLock(position, 1, false);
                if (probe != null) {
                    probe.release();
                }
                return false;
            } catch (OverlappingFileLockException heldHere) {
                return true;
            }
        });
    }

    private FileChannel turnFile() throws Exception {
        return FileChannel.open(dir.resolve(SqliteQueueStore.FILE_NAME + ClaimTurns.SUFFIX), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Waits until another process holds the default queue's turn. */
    private static void awaitTurnHeldElsewhere(FileChannel turns) {
        awaitTurnHeldElsewhere(turns, QUEUE);
    }

    /** Waits until another process holds a queue's turn: this JVM cannot lock its byte. */
    private static void awaitTurnHeldElsewhere(FileChannel turns, String queue) {
        long position = ClaimTurns.position(queue);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            FileLock probe = turns.tryLock(position, 1, false);
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        });
    }
}
