package io.localqueue.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.FailedMessage;
import io.localqueue.Job;
import io.localqueue.JobNotFoundException;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.TestDatabases;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import io.localqueue.model.QueueModel.Item;
import io.localqueue.model.QueueModel.PutOutcome;
import io.localqueue.model.QueueModel.RetryOutcome;
import io.localqueue.model.QueueModel.Row;
import io.localqueue.model.QueueModel.State;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One seeded random walk over a {@link SimpleQueue}: every operation is predicted by a {@link QueueModel} and the
 * engine's answer, exceptions and {@code stats()} are compared with the prediction after each step. A mismatch fails
 * with the seed, the step and the recent operations, so the walk can be replayed.
 */
final class ModelRun {

    static final Duration LEASE = Duration.ofSeconds(30);
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final int JOB_ID_POOL = 6;
    private static final int MAX_HELD = 16;
    private static final int LOG_SIZE = 30;
    private static final int FAILED_CHECK_EVERY = 10;
    private static final String OTHER_QUEUE = "other";

    /** A delivery the test still holds, valid or stale, and which queue object handed it out. */
    private record Held(Job<String> job, long delivery, int generation) {
    }

    private final long seed;
    private final int steps;
    private final Path directory;
    private final Random random;
    private final ModelClock clock = new ModelClock(START);
    private final long maxPendingJobs;
    private int maxRetries;
    private final QueueModel model;
    private final Map<String, Long> otherJobIds = new HashMap<>();
    private final List<Long> otherIds = new ArrayList<>();
    private final List<Long> purgedIds = new ArrayList<>();
    private final List<Held> held = new ArrayList<>();
    private final Set<String> receipts = new HashSet<>();
    private final ArrayDeque<String> log = new ArrayDeque<>();
    private @Nullable LocalQueueDatabase sharedHandle;
    private SimpleQueue<String> queue;
    private SimpleQueue<String> other;
    private int generation;
    private int payloadCounter;
    private int step;

    ModelRun(long seed, int steps, Path directory) {
        this.seed = seed;
        this.steps = steps;
        this.directory = directory;
        this.random = new Random(seed);
        this.maxRetries = random.nextInt(4);
        this.maxPendingJobs = random.nextInt(100) < 40 ? 1 + random.nextInt(6) : 0;
        this.model = new QueueModel(maxPendingJobs, LEASE.toMillis(), maxRetries + 1, START.toEpochMilli());
    }

    void run() {
        // On a server, the store lives while a handle is open, and its leases' holder with it: a handle held for the
        // whole walk keeps it across the walk's reopens, as the JVM's holder of a file outlives its last handle.
        LocalQueueDatabase anchor = TestDatabases.onFile() ? null : TestDatabases.open(directory);
        try {
            open(false);
            for (step = 1; step <= steps; step++) {
                try {
                    randomOperation();
                    assertThat(queue.stats()).as("stats() after the operation").isEqualTo(model.stats());
                    if (step % FAILED_CHECK_EVERY == 0 || step == steps) {
                        checkFailedList();
                    }
                } catch (Throwable mismatch) {
                    throw new AssertionError(report(mismatch), mismatch);
                }
            }
        } finally {
            closeQuietly();
            if (anchor != null) {
                anchor.close();
            }
        }
    }

    private String report(Throwable mismatch) {
        StringBuilder text = new StringBuilder();
        text.append("model and engine disagree: seed=").append(seed).append(" step=").append(step).append('/')
                .append(steps).append(" (replay with -Dlocalqueue.model.seed=").append(seed)
                .append(" -Dlocalqueue.model.steps=").append(step).append(")\n");
        text.append("config: maxRetries=").append(maxRetries).append(" maxPendingJobs=")
                .append(maxPendingJobs == 0 ? "unlimited" : maxPendingJobs).append(" lease=").append(LEASE)
                .append(" t=").append(rel(now())).append('\n');
        text.append("recent operations (t = ms since start):\n");
        for (String line : log) {
            text.append("  ").append(line).append('\n');
        }
        text.append("model: ").append(model).append('\n');
        text.append("cause: ").append(mismatch);
        return text.toString();
    }

    // ---------------------------------------------------------------- operations

    private void randomOperation() {
        int roll = random.nextInt(100);
        if (roll < 14) {
            put();
        } else if (roll < 20) {
            putMany();
        } else if (roll < 38) {
            claim();
        } else if (roll < 48) {
            ack();
        } else if (roll < 58) {
            nack();
        } else if (roll < 62) {
            fail();
        } else if (roll < 67) {
            extendLease();
        } else if (roll < 80) {
            advanceClock();
        } else if (roll < 83) {
            reclaim();
        } else if (roll < 88) {
            retryFailed();
        } else if (roll < 92) {
            purge();
        } else if (roll < 95) {
            reopen();
        } else {
            otherQueue();
        }
    }

    private void put() {
        String payload = nextPayload();
        String jobId = random.nextInt(100) < 60 ? randomJobId() : null;
        List<Item> items = List.of(new Item(payload, jobId));
        PutOutcome plan = model.plan(items);
        if (maxPendingJobs > 0) {
            String call = "put(" + payload + ", " + jobId + ", ZERO)";
            if (plan.full()) {
                note(call + " -> expect QueueFullException (pending " + model.pending() + ")");
                assertThatThrownBy(() -> queue.put(payload, jobId, Duration.ZERO))
                        .as(call).isInstanceOf(QueueFullException.class);
                return;
            }
            long id = queue.put(payload, jobId, Duration.ZERO);
            note(call + " -> " + id + " (model " + plan.ids() + ")");
            model.commit(items, plan, List.of(id), now());
            return;
        }
        boolean shortForm = jobId == null && random.nextBoolean();
        String call = shortForm ? "put(" + payload + ")" : "put(" + payload + ", " + jobId + ")";
        long id = shortForm ? queue.put(payload) : queue.put(payload, jobId);
        note(call + " -> " + id + " (model " + plan.ids() + ")");
        model.commit(items, plan, List.of(id), now());
    }

    private void putMany() {
        int size = 1 + random.nextInt(5);
        List<Item> items = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            String jobId = null;
            List<String> earlier = items.stream().map(Item::jobId).filter(id -> id != null).toList();
            if (!earlier.isEmpty() && random.nextInt(100) < 25) {
                jobId = earlier.get(random.nextInt(earlier.size()));
            } else if (random.nextBoolean()) {
                jobId = randomJobId();
            }
            items.add(new Item(nextPayload(), jobId));
        }
        List<EnqueueItem<String>> batch = items.stream().map(i -> EnqueueItem.of(i.payload(), i.jobId())).toList();
        PutOutcome plan = model.plan(items);
        String call = "putMany(" + items + ")";
        if (maxPendingJobs > 0) {
            if (plan.full()) {
                note(call + " -> expect QueueFullException (pending " + model.pending() + ", new rows "
                        + plan.newRows() + (plan.impossible() ? ", never fits" : "") + ")");
                assertThatThrownBy(() -> queue.putMany(batch, Duration.ZERO))
                        .as(call).isInstanceOf(QueueFullException.class);
                return;
            }
            List<Long> ids = queue.putMany(batch, Duration.ZERO);
            note(call + " -> " + ids + " (model " + plan.ids() + ")");
            model.commit(items, plan, ids, now());
            return;
        }
        List<Long> ids = random.nextBoolean() ? queue.putMany(batch) : queue.putMany(batch, Duration.ofSeconds(1));
        note(call + " -> " + ids + " (model " + plan.ids() + ")");
        model.commit(items, plan, ids, now());
    }

    private void claim() {
        Optional<Row> expected = model.claim(now());
        int how = random.nextInt(3);
        String call = how == 0 ? "getNowait()" : "get(ZERO)";
        Supplier<Job<String>> get = how == 0 ? queue::getNowait : () -> queue.get(Duration.ZERO);
        if (expected.isEmpty()) {
            note(call + " -> expect QueueEmptyException");
            assertThatThrownBy(get::get).as(call).isInstanceOf(QueueEmptyException.class);
            return;
        }
        if (how == 2) {
            call = "get(5s)";
            get = () -> queue.get(Duration.ofSeconds(5));
        }
        Row row = expected.get();
        Job<String> job = get.get();
        note(call + " -> id=" + job.id() + " attempts=" + job.attempts() + " (model id=" + row.id + " attempts="
                + (row.attempts - 1) + ")");
        assertThat(job.id()).as(call + " id").isEqualTo(row.id);
        assertThat(job.data()).as(call + " data").isEqualTo(row.payload);
        assertThat(job.attempts()).as(call + " attempts").isEqualTo(row.attempts - 1);
        assertThat(job.leaseExpiresAt()).as(call + " leaseExpiresAt").isEqualTo(Instant.ofEpochMilli(row.leaseUntil));
        assertThat(job.queueName()).isEqualTo(queue.name());
        assertThat(receipts.add(job.receipt())).as(call + " receipt is new: " + job.receipt()).isTrue();
        if (held.size() == MAX_HELD) {
            held.remove(0);
        }
        held.add(new Held(job, row.delivery, generation));
    }

    private void ack() {
        Held target = pickHeld();
        if (target == null) {
            note("ack: nothing held");
            return;
        }
        Job<String> job = target.job();
        String call = "ack(" + describe(target) + ")";
        if (model.holds(job.id(), target.delivery(), now())) {
            note(call + " -> ok");
            queue.ack(job);
            model.ack(job.id(), now());
        } else {
            note(call + " -> expect LeaseExpiredException");
            assertThatThrownBy(() -> queue.ack(job)).as(call).isInstanceOf(LeaseExpiredException.class);
        }
    }

    private void nack() {
        Held target = pickHeld();
        if (target == null) {
            note("nack: nothing held");
            return;
        }
        Job<String> job = target.job();
        Duration delay = random.nextBoolean() ? Duration.ZERO : Duration.ofMillis(250L * (1 + random.nextInt(80)));
        String lastError = random.nextBoolean() ? null : "error at step " + step;
        boolean shortForm = delay.isZero() && lastError == null && random.nextBoolean();
        String call = "nack(" + describe(target) + ", " + delay + ", " + lastError + ")";
        Runnable nack = shortForm ? () -> queue.nack(job) : () -> queue.nack(job, delay, lastError);
        if (model.holds(job.id(), target.delivery(), now())) {
            nack.run();
            State state = model.nack(job.id(), delay.toMillis(), lastError, now());
            note(call + " -> " + state);
        } else {
            note(call + " -> expect LeaseExpiredException");
            assertThatThrownBy(nack::run).as(call).isInstanceOf(LeaseExpiredException.class);
        }
    }

    private void fail() {
        Held target = pickHeld();
        if (target == null) {
            note("fail: nothing held");
            return;
        }
        Job<String> job = target.job();
        String lastError = random.nextBoolean() ? null : "fatal at step " + step;
        boolean shortForm = lastError == null && random.nextBoolean();
        String call = "fail(" + describe(target) + ", " + lastError + ")";
        Runnable fail = shortForm ? () -> queue.fail(job) : () -> queue.fail(job, lastError);
        if (model.holds(job.id(), target.delivery(), now())) {
            note(call + " -> ok");
            fail.run();
            model.fail(job.id(), lastError, now());
        } else {
            note(call + " -> expect LeaseExpiredException");
            assertThatThrownBy(fail::run).as(call).isInstanceOf(LeaseExpiredException.class);
        }
    }

    private void extendLease() {
        Held target = pickHeld();
        if (target == null) {
            note("extendLease: nothing held");
            return;
        }
        Job<String> job = target.job();
        Duration duration = Duration.ofMillis(1_000L * (1 + random.nextInt(60)));
        boolean throughJob = target.generation() == generation && random.nextBoolean();
        String call = (throughJob ? "job.extendLease(" : "extendLease(") + describe(target) + ", " + duration + ")";
        Supplier<Instant> extend = throughJob ? () -> job.extendLease(duration)
                : () -> queue.extendLease(job, duration);
        if (target.generation() != generation && random.nextInt(100) < 20) {
            note("job.extendLease(" + describe(target) + ") on its closed queue -> expect QueueClosedException");
            assertThatThrownBy(() -> job.extendLease(duration)).as("extendLease through a closed queue")
                    .isInstanceOf(QueueClosedException.class);
            return;
        }
        if (model.holds(job.id(), target.delivery(), now())) {
            long expected = model.extendLease(job.id(), duration.toMillis(), now());
            Instant expiry = extend.get();
            note(call + " -> " + rel(expiry.toEpochMilli()));
            assertThat(expiry).as(call).isEqualTo(Instant.ofEpochMilli(expected));
            assertThat(job.leaseExpiresAt()).as(call + " updates the job").isEqualTo(expiry);
        } else {
            note(call + " -> expect LeaseExpiredException");
            assertThatThrownBy(extend::get).as(call).isInstanceOf(LeaseExpiredException.class);
        }
    }

    private void advanceClock() {
        int roll = random.nextInt(100);
        Duration stepBy;
        if (roll < 60) {
            stepBy = Duration.ofMillis(random.nextInt(5_001));
        } else if (roll < 85) {
            stepBy = LEASE.plusMillis(random.nextInt(15_001));
        } else if (roll < 95 && !held.isEmpty()) {
            // land exactly on a held lease's expiry: at that instant the lease is already lost
            long expiry = held.get(random.nextInt(held.size())).job().leaseExpiresAt().toEpochMilli();
            stepBy = Duration.ofMillis(Math.max(0, expiry - now()));
        } else {
            stepBy = Duration.ofMinutes(1 + random.nextInt(90));
        }
        clock.advance(stepBy);
        note("advance clock by " + stepBy + " to t=" + rel(now()));
    }

    private void reclaim() {
        int expected = model.reclaim(now());
        int moved = queue.reclaimExpiredLeases();
        note("reclaimExpiredLeases() -> " + moved + " (model " + expected + ")");
        assertThat(moved).as("reclaimExpiredLeases()").isEqualTo(expected);
    }

    private void retryFailed() {
        long id = pickRetryId();
        RetryOutcome expected = model.retryFailed(id, now());
        String call = "retryFailed(" + id + ")";
        note(call + " -> expect " + expected);
        switch (expected) {
            case RETRIED -> queue.retryFailed(id);
            case NOT_FOUND -> assertThatThrownBy(() -> queue.retryFailed(id)).as(call)
                    .isInstanceOf(JobNotFoundException.class);
            case FULL -> assertThatThrownBy(() -> queue.retryFailed(id)).as(call)
                    .isInstanceOf(QueueFullException.class);
        }
    }

    private long pickRetryId() {
        List<Row> failed = model.failed();
        int roll = random.nextInt(100);
        if (!failed.isEmpty() && roll < 60) {
            return failed.get(random.nextInt(failed.size())).id;
        }
        if (roll < 75) {
            List<Row> all = model.rows();
            if (!all.isEmpty()) {
                return all.get(random.nextInt(all.size())).id;
            }
        }
        if (roll < 85 && !otherIds.isEmpty()) {
            return otherIds.get(random.nextInt(otherIds.size()));
        }
        if (roll < 92 && !purgedIds.isEmpty()) {
            return purgedIds.get(random.nextInt(purgedIds.size()));
        }
        return model.lastId() + 1 + random.nextInt(3);
    }

    private void purge() {
        Duration[] ages = {Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(10)};
        Duration olderThan = ages[random.nextInt(ages.length)];
        boolean includeFailed = random.nextInt(100) < 30;
        boolean shortForm = !includeFailed && random.nextBoolean();
        Set<Long> before = new HashSet<>();
        model.rows().forEach(r -> before.add(r.id));
        int expected = model.purge(olderThan.toMillis(), includeFailed, now());
        model.rows().forEach(r -> before.remove(r.id));
        purgedIds.addAll(before);
        int deleted = shortForm ? queue.purge(olderThan) : queue.purge(olderThan, includeFailed);
        note("purge(" + olderThan + ", " + includeFailed + ") -> " + deleted + " (model " + expected + ": " + before
                + ")");
        assertThat(deleted).as("purge").isEqualTo(expected);
    }

    /** Closes both queues and opens them again on the same directory, sometimes with another retry budget. */
    private void reopen() {
        SimpleQueue<String> closedQueue = queue;
        closeQuietly();
        assertThatThrownBy(closedQueue::stats).as("stats() after close").isInstanceOf(QueueClosedException.class);
        if (random.nextInt(100) < 30) {
            maxRetries = random.nextInt(4);
            model.maxAttempts(maxRetries + 1);
        }
        boolean shared = random.nextInt(100) < 30;
        open(shared);
        note("close and reopen" + (shared ? " on a shared database handle" : "") + ", maxRetries=" + maxRetries);
    }

    /**
     * Puts into a second queue of the same file: a job id of the main queue's pool is independent there, ids share
     * one sequence, and the main queue can neither settle nor retry the other queue's jobs.
     */
    private void otherQueue() {
        String payload = nextPayload();
        String jobId = random.nextBoolean() ? randomJobId() : null;
        Long existing = jobId == null ? null : otherJobIds.get(jobId);
        long id = other.put(payload, jobId);
        String call = "other.put(" + payload + ", " + jobId + ")";
        if (existing != null) {
            note(call + " -> " + id + " (existing " + existing + ")");
            assertThat(id).as(call).isEqualTo(existing);
            return;
        }
        note(call + " -> " + id + " (new row), claimed, settled through the wrong queue");
        model.foreignId(id);
        if (jobId != null) {
            otherJobIds.put(jobId, id);
        }
        otherIds.add(id);
        Job<String> job = other.getNowait();
        assertThat(job.id()).as("other.getNowait()").isEqualTo(id);
        assertThatThrownBy(() -> queue.ack(job)).as("ack through the wrong queue")
                .isInstanceOf(LeaseExpiredException.class);
        assertThatThrownBy(() -> queue.extendLease(job, LEASE)).as("extendLease through the wrong queue")
                .isInstanceOf(LeaseExpiredException.class);
        if (random.nextBoolean()) {
            other.ack(job);
        } else {
            other.fail(job, "other queue");
            assertThatThrownBy(() -> queue.retryFailed(id)).as("retryFailed of the other queue's dead letter")
                    .isInstanceOf(JobNotFoundException.class);
        }
    }

    // ---------------------------------------------------------------- checks

    private void checkFailedList() {
        List<Row> expected = model.failed();
        int pageSize = 1 + random.nextInt(4);
        List<FailedMessage<String>> actual = new ArrayList<>();
        for (int offset = 0; ; offset += pageSize) {
            List<FailedMessage<String>> page = queue.listFailed(pageSize, offset);
            actual.addAll(page);
            if (page.size() < pageSize) {
                break;
            }
        }
        note("listFailed pages of " + pageSize + " -> " + actual.stream().map(FailedMessage::id).toList());
        assertThat(actual).as("listFailed size").hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            Row row = expected.get(i);
            FailedMessage<String> message = actual.get(i);
            String what = "listFailed[" + i + "] (model " + row + ")";
            assertThat(message.id()).as(what + " id").isEqualTo(row.id);
            assertThat(message.reason()).as(what + " reason").isEqualTo(row.reason);
            assertThat(message.attempts()).as(what + " attempts").isEqualTo(row.attempts);
            assertThat(message.lastError()).as(what + " lastError").isEqualTo(row.lastError);
            assertThat(message.data()).as(what + " data").isEqualTo(row.payload);
            assertThat(message.decoded()).as(what + " decoded").isTrue();
            assertThat(message.createdAt()).as(what + " createdAt").isEqualTo(Instant.ofEpochMilli(row.createdAt));
            assertThat(message.updatedAt()).as(what + " updatedAt").isEqualTo(Instant.ofEpochMilli(row.updatedAt));
        }
    }

    // ---------------------------------------------------------------- helpers

    private void open(boolean shared) {
        generation++;
        SimpleQueue.Builder<String> main;
        SimpleQueue.Builder<String> second;
        if (shared || !TestDatabases.onFile()) {
            sharedHandle = TestDatabases.open(directory);
            main = SimpleQueue.builder(sharedHandle, String.class);
            second = SimpleQueue.builder(sharedHandle, String.class);
        } else {
            main = SimpleQueue.builder(directory, String.class);
            second = SimpleQueue.builder(directory, String.class);
        }
        DeliveryPolicy delivery = new DeliveryPolicy(LEASE, maxRetries);
        main.delivery(delivery).clock(clock);
        if (maxPendingJobs > 0) {
            main.maxPendingJobs(maxPendingJobs);
        }
        queue = main.build();
        other = second.name(OTHER_QUEUE).delivery(delivery).clock(clock).build();
    }

    private void closeQuietly() {
        if (queue != null) {
            queue.close();
        }
        if (other != null) {
            other.close();
        }
        if (sharedHandle != null) {
            sharedHandle.close();
            sharedHandle = null;
        }
    }

    /** Mostly a delivery the model says is still live, otherwise any held one, live or stale. */
    private @Nullable Held pickHeld() {
        if (held.isEmpty()) {
            return null;
        }
        List<Held> live = held.stream().filter(h -> model.holds(h.job().id(), h.delivery(), now())).toList();
        if (!live.isEmpty() && random.nextInt(100) < 70) {
            return live.get(random.nextInt(live.size()));
        }
        return held.get(random.nextInt(held.size()));
    }

    private String describe(Held target) {
        Job<String> job = target.job();
        return "id=" + job.id() + " delivery=" + target.delivery() + " lease=" + rel(
                job.leaseExpiresAt().toEpochMilli()) + (model.holds(job.id(), target.delivery(), now()) ? " live"
                : " stale");
    }

    private String randomJobId() {
        return "job-" + random.nextInt(JOB_ID_POOL);
    }

    private String nextPayload() {
        return "p" + (++payloadCounter);
    }

    private long now() {
        return clock.millis();
    }

    private long rel(long millis) {
        return millis - START.toEpochMilli();
    }

    private void note(String line) {
        if (log.size() == LOG_SIZE) {
            log.removeFirst();
        }
        log.addLast("#" + step + " t=" + rel(now()) + " " + line);
    }
}
