package io.localqueue.internal.engine;

import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.Turns;
import io.localqueue.internal.store.WriteOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the finished rows of the queues open on one database in the background, each queue as its queue objects'
 * retention says (the longest any of them keeps): a daemon thread runs every queue once per interval, in small
 * batches of their own transactions so that no claim waits long for the write lock, and only while it holds the
 * queue's retention turn, which one process (or host) at a time can take.
 */
final class Retention implements AutoCloseable {

    /** The most rows one transaction deletes. */
    static final int BATCH_ROWS = 500;

    /** The longest pause between two batches of one run. */
    static final Duration LONGEST_PAUSE = Duration.ofMillis(50);

    /** How often each queue is looked at. */
    static final Duration INTERVAL = Duration.ofMinutes(1);

    /** How long a turn lasts unless its holder finishes it before: a holder that died leaves it for this long. */
    static final Duration TURN = Duration.ofMinutes(5);

    /** The start of the thread's name; the database's location follows it. */
    static final String THREAD_NAME = "localqueue-retention";

    private static final Logger log = LoggerFactory.getLogger(Retention.class);

    private final QueueStore store;
    private final long intervalMillis;
    private final String holder = "retention-" + UUID.randomUUID();
    private final Map<String, List<Registration>> queues = new LinkedHashMap<>();
    private ScheduledExecutorService scheduler;
    private boolean closed;

    Retention(QueueStore store, Duration interval) {
        this.store = store;
        this.intervalMillis = interval.toMillis();
    }

    /**
     * Keeps a queue's finished rows as {@code policy} says while the returned registration is open, starting the
     * thread at the first.
     *
     * @param queue the queue
     * @param policy how long finished rows are kept
     * @param clock the queue's clock, which the cutoffs are read from
     * @param durability how the deletions commit
     * @param first what runs before the queue's rows are deleted, in its turn: deletions that free rows, such as
     *              completed executions, which keep the deliveries they report on
     * @return the registration, closed when the queue object closes
     */
    Registration register(String queue, RetentionPolicy policy, Clock clock, DurabilityMode durability,
                          Runnable first) {
        Registration registration = new Registration(queue, policy, clock, durability, first);
        synchronized (queues) {
            if (closed) {
                throw new LocalQueueException("database " + store.location() + " is closed");
            }
            queues.computeIfAbsent(queue, name -> new ArrayList<>()).add(registration);
            if (scheduler == null) {
                scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, THREAD_NAME + " " + store.location());
                    thread.setDaemon(true);
                    return thread;
                });
                long initialDelay = ThreadLocalRandom.current().nextLong(intervalMillis / 2, intervalMillis + 1);
                scheduler.scheduleWithFixedDelay(this::runAll, initialDelay, intervalMillis, TimeUnit.MILLISECONDS);
            }
        }
        return registration;
    }

    /**
     * Runs one queue's retention now, on the caller's thread, when this process can take its turn.
     *
     * @param queue the queue; one without an open registration is left alone
     * @return how many rows were deleted, or -1 when another process had the turn or nothing is registered
     */
    long runNow(String queue) {
        List<Registration> registered;
        synchronized (queues) {
            List<Registration> open = queues.get(queue);
            if (closed || open == null || open.isEmpty()) {
                return -1;
            }
            registered = List.copyOf(open);
        }
        RetentionPolicy kept = registered.get(0).policy;
        for (Registration other : registered) {
            kept = kept.keepingLongest(other.policy);
        }
        return run(queue, kept, registered);
    }

    private long run(String queue, RetentionPolicy policy, List<Registration> registered) {
        Clock clock = registered.get(0).clock;
        DurabilityMode durability = registered.get(0).durability;
        String name = Turns.retention(queue);
        long now = clock.millis();
        boolean taken = store.write(WriteOptions.standard("retention-turn", durability), () -> { },
                writes -> writes.takeTurn(name, holder, now, now + TURN.toMillis()));
        if (!taken) {
            return -1;
        }
        for (Registration registration : registered) {
            registration.first.run();
        }
        long deleted = deleteAll(queue, RowStatus.ACKED, now - policy.ackedMillis(), durability);
        if (!policy.keepsFailed()) {
            deleted += deleteAll(queue, RowStatus.FAILED, now - policy.failedMillis(), durability);
        }
        long total = deleted;
        store.write(WriteOptions.standard("retention-turn", durability), () -> { }, writes -> {
            writes.finishTurn(name, holder, clock.millis(), total);
            return null;
        });
        return total;
    }

    /**
     * Deletes batch after batch, each its own transaction, until a batch comes back short; after each batch it pauses
     * as long as the batch took (at most {@link #LONGEST_PAUSE}), so that claims and puts keep at least half of the
     * write lock's time while a large backlog of finished rows goes.
     */
    private long deleteAll(String queue, int status, long cutoff, DurabilityMode durability) {
        long deleted = 0;
        while (true) {
            long started = System.nanoTime();
            int batch = store.write(WriteOptions.standard("retention", durability), () -> { },
                    writes -> writes.deleteFinished(queue, status, cutoff, BATCH_ROWS));
            deleted += batch;
            if (batch < BATCH_ROWS || Thread.currentThread().isInterrupted()) {
                return deleted;
            }
            LockSupport.parkNanos(Math.min(System.nanoTime() - started, LONGEST_PAUSE.toNanos()));
        }
    }

    private void runAll() {
        List<String> names;
        synchronized (queues) {
            names = List.copyOf(queues.keySet());
        }
        for (String queue : names) {
            try {
                runNow(queue);
            } catch (RuntimeException failure) {
                log.warn("The retention of queue '{}' on {} failed; it runs again in {} ms", queue,
                        store.location(), intervalMillis, failure);
            }
        }
    }

    /** Stops the thread; a batch running finishes first. */
    @Override
    public void close() {
        ScheduledExecutorService stopping;
        synchronized (queues) {
            closed = true;
            stopping = scheduler;
            queues.clear();
        }
        if (stopping != null) {
            stopping.shutdownNow();
            try {
                stopping.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One queue object's retention; closing it leaves the queue to the others that remain. */
    final class Registration implements AutoCloseable {

        private final String queue;
        private final RetentionPolicy policy;
        private final Clock clock;
        private final DurabilityMode durability;
        private final Runnable first;

        private Registration(String queue, RetentionPolicy policy, Clock clock, DurabilityMode durability,
                             Runnable first) {
            this.queue = queue;
            this.policy = policy;
            this.clock = clock;
            this.durability = durability;
            this.first = first;
        }

        @Override
        public void close() {
            synchronized (queues) {
                List<Registration> registered = queues.get(queue);
                if (registered != null) {
                    registered.remove(this);
                    if (registered.isEmpty()) {
                        queues.remove(queue);
                    }
                }
            }
        }
    }
}
