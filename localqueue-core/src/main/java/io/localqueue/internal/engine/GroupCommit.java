package io.localqueue.internal.engine;

import io.localqueue.DurabilityMode;
import io.localqueue.JobOutcome;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds the fenced settlements and lease renewals of one database that threads submit at the same moment into one
 * write transaction, each under its own fence, and hands every submitter its own result.
 *
 * <p>A caller that waits ({@link #settle}, {@link #renew}) returns only after the commit that holds its change:
 * whichever waiting thread gets to commit first takes everything pending, so one thread on its own pays one
 * uncontended lock. A caller that does not wait ({@link #settleLater}, a worker's handler thread) hands its
 * settlement over and moves on; a committer thread commits what gathered and reports each result once its
 * transaction committed. Up to {@value #MAX_WAITING} such settlements wait, past which their submitters wait too. A
 * failed transaction fails every change in it whose caller waits; a settlement handed over is kept and tried again in
 * the background until its lease ends ({@link SettlementRetries}), and only then given up, its job delivered again.
 *
 * <p>An acknowledgement handed over may carry writes that commit only with it (a handler's emitted events): they run
 * in the same transaction right after the settlements, and only when the acknowledgement took. When they throw, the
 * transaction rolls back, that change alone fails with the cause (its acknowledgement not recorded either), and the
 * others run again without it.
 */
final class GroupCommit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);

    /** The most changes folded into one transaction. */
    static final int MAX_BATCH = 1024;

    /** The most settlements handed over without waiting that may wait for their commit. */
    static final int MAX_WAITING = 4096;

    private static final long ROOM_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final QueueStore store;
    private final SettlementRetries retries;
    private final ConcurrentLinkedQueue<Change> pending = new ConcurrentLinkedQueue<>();
    private final ReentrantLock combiner = new ReentrantLock();
    private final Semaphore room = new Semaphore(MAX_WAITING);
    private final Semaphore handedOver = new Semaphore(0);
    private final Object committerLifecycle = new Object();
    private volatile @Nullable Thread committer;
    private volatile boolean closed;

    GroupCommit(QueueStore store) {
        this.store = store;
        this.retries = new SettlementRetries(log, store.location(), System::nanoTime);
    }

    /**
     * Settles one delivery in a transaction shared with whatever else is pending.
     *
     * @param settlement the settlement
     * @param durability the durability this change asks for; the shared commit uses the strongest asked for
     * @return what it did, once committed
     */
    JobOutcome settle(Settlement settlement, DurabilityMode durability) {
        Change change = new Change(settlement, null, durability, null, null, 0, null);
        commitWith(change);
        change.throwIfFailed();
        return change.outcome;
    }

    /**
     * Renews one lease in a transaction shared with whatever else is pending.
     *
     * @param renewal the renewal
     * @param durability the durability this change asks for
     * @return whether the fence matched and the lease was renewed, once committed
     */
    boolean renew(Renewal renewal, DurabilityMode durability) {
        Change change = new Change(null, renewal, durability, null, null, 0, null);
        commitWith(change);
        change.throwIfFailed();
        return change.renewed;
    }

    /**
     * Hands a settlement to the committer thread and returns; {@code done} hears the result on that thread after
     * the commit, or once the settlement is given up: a failed transaction is tried again until {@code leaseUntil}
     * on {@code clock}, each attempt stamped with that clock's time. Waits while {@value #MAX_WAITING} settlements are
     * still waiting, unless called from a report on the committing thread, and settles on the calling thread when
     * interrupted or closed meanwhile.
     *
     * @param settlement the settlement
     * @param durability the durability this change asks for
     * @param clock the settlement's queue's clock
     * @param leaseUntil when the delivery's lease ends on that clock, epoch milliseconds
     * @param with writes that commit only with this settlement, run when it acknowledged its delivery, or null; their
     *             own failure fails this change alone, with the cause
     * @param done told the result; must be quick
     */
    void settleLater(Settlement settlement, DurabilityMode durability, Clock clock, long leaseUntil,
                     @Nullable StoreWork<?> with, Settled done) {
        Change change = new Change(settlement, null, durability, done, clock, leaseUntil, with);
        if (!combiner.isHeldByCurrentThread()) {
            // not a report on the committing thread settling again, which would wait for room only it can free
            if (!takeRoom()) {
                commitWith(change);
                return;
            }
            change.holdsRoom = true;
        }
        pending.add(change);
        handedOver.release();
        startCommitter();
    }

    /**
     * Commits everything submitted so far on the calling thread; every result has been reported when it returns, but
     * for the settlements kept for another attempt after their transaction failed, which the committer thread tries
     * again in its own time.
     */
    void flush() {
        combiner.lock();
        try {
            while (!pending.isEmpty()) {
                commitPending();
            }
        } finally {
            combiner.unlock();
        }
    }

    /** How many more settlements may be handed over before their submitters wait. */
    int room() {
        return room.availablePermits();
    }

    /** Puts the kept settlements that are due back in line, and gives up those whose lease ended. */
    private void requeueRetries() {
        List<Change> givenUp = new ArrayList<>();
        List<Change> due = retries.due(givenUp);
        for (Change change : givenUp) {
            finish(change, SettlementRetries.givenUp("its lease ended while the database failed"));
        }
        for (Change change : due) {
            change.retried = true;
            pending.add(change);
        }
    }

    /** Commits what is pending and stops the committer thread. */
    @Override
    public void close() {
        closed = true;
        Thread thread;
        synchronized (committerLifecycle) {
            thread = committer;
            committer = null;
        }
        if (thread != null && thread != Thread.currentThread()) {
            handedOver.release();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        flush();
        RuntimeException closing = SettlementRetries.givenUp("the database closed while it failed");
        combiner.lock();
        try {
            for (Change change : retries.drain()) {
                finish(change, closing);
            }
        } finally {
            combiner.unlock();
        }
    }

    private boolean takeRoom() {
        try {
            while (!closed) {
                if (room.tryAcquire(ROOM_POLL_NANOS, TimeUnit.NANOSECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void startCommitter() {
        if (committer != null) {
            return;
        }
        synchronized (committerLifecycle) {
            if (committer == null && !closed) {
                Thread thread = new Thread(this::commitHandedOver, "localqueue-commit");
                thread.setDaemon(true);
                committer = thread;
                thread.start();
            }
        }
    }

    /** The committer thread: commits whenever settlements were handed over or a kept one is due, until closed. */
    private void commitHandedOver() {
        while (!closed) {
            long due = retries.nanosUntilDue();
            if (due == Long.MAX_VALUE) {
                handedOver.acquireUninterruptibly();
            } else {
                try {
                    handedOver.tryAcquire(due, TimeUnit.NANOSECONDS);
                } catch (InterruptedException interrupted) {
                    // nobody interrupts the committer but the JVM's end; look again
                }
            }
            handedOver.drainPermits();
            try {
                combiner.lock();
                try {
                    requeueRetries();
                } finally {
                    combiner.unlock();
                }
                flush();
            } catch (RuntimeException unexpected) {
                log.error("Committing settlements of {} failed", store.location(), unexpected);
            }
        }
    }

    /** Adds a change and commits until it is done, unless another thread's commit takes it first. */
    private void commitWith(Change change) {
        pending.add(change);
        combiner.lock();
        try {
            while (!change.done) {
                commitPending();
            }
        } finally {
            combiner.unlock();
        }
    }

    /**
     * Commits up to {@value #MAX_BATCH} pending changes in one transaction; when the writes carried by one change throw,
     * fails that change and commits the others again without it. The caller holds the combiner.
     */
    private void commitPending() {
        List<Change> batch = new ArrayList<>();
        Change next;
        while (batch.size() < MAX_BATCH && (next = pending.poll()) != null) {
            batch.add(next);
        }
        while (!batch.isEmpty()) {
            Attempt attempt = new Attempt(batch);
            FencedResults results;
            try {
                results = store.write(WriteOptions.standard("settle",
                        SharedDurability.of(batch, change -> change.durability)), () -> { }, attempt::run);
            } catch (RuntimeException failure) {
                Change blamed = attempt.blamed;
                if (blamed == null) {
                    for (Change change : retries.failed(batch, failure)) {
                        finish(change, failure);
                    }
                    return;
                }
                batch.remove(blamed);
                finish(blamed, failure);
                continue;
            }
            retries.committed((int) batch.stream().filter(change -> change.retried).count());
            int settled = 0;
            int renewed = 0;
            for (Change change : batch) {
                if (change.settlement != null) {
                    change.outcome = results.outcomes().get(settled++);
                } else {
                    change.renewed = results.renewed().get(renewed++);
                }
                finish(change, null);
            }
            return;
        }
    }

    /** One run of a batch in a transaction, remembering the change whose own writes threw. */
    private static final class Attempt {

        private final List<Change> batch;
        @Nullable Change blamed;

        Attempt(List<Change> batch) {
            this.batch = batch;
        }

        FencedResults run(QueueWrites writes) {
            blamed = null;
            List<Settlement> settlements = new ArrayList<>(batch.size());
            List<Renewal> renewals = new ArrayList<>();
            for (Change change : batch) {
                if (change.settlement != null) {
                    settlements.add(change.settlement);
                } else if (change.renewal != null) {
                    renewals.add(change.renewal);
                }
            }
            FencedResults results = writes.settle(settlements, renewals);
            int settled = 0;
            for (Change change : batch) {
                if (change.settlement == null) {
                    continue;
                }
                StoreWork<?> with = change.with;
                if (results.outcomes().get(settled++) == JobOutcome.ACKED && with != null) {
                    try {
                        with.run(writes);
                    } catch (RuntimeException failure) {
                        blamed = change;
                        throw failure;
                    }
                }
            }
            return results;
        }
    }

    private void finish(Change change, @Nullable RuntimeException failure) {
        change.finish(failure);
        if (change.holdsRoom) {
            room.release();
        }
    }

    /** One submitted settlement or renewal and, once its transaction ended, its result. */
    static final class Change {
        private @Nullable Settlement settlement;
        private final @Nullable Renewal renewal;
        private final DurabilityMode durability;
        private final @Nullable Settled listener;
        private final @Nullable Clock clock;
        private final long leaseUntil;
        private final @Nullable StoreWork<?> with;
        private boolean holdsRoom;
        private boolean retried;
        private JobOutcome outcome = JobOutcome.DISCARDED;
        private boolean renewed;
        private @Nullable RuntimeException failure;
        /** Written and read under the combiner lock. */
        private boolean done;

        Change(@Nullable Settlement settlement, @Nullable Renewal renewal, DurabilityMode durability,
               @Nullable Settled listener, @Nullable Clock clock, long leaseUntil, @Nullable StoreWork<?> with) {
            this.settlement = settlement;
            this.renewal = renewal;
            this.durability = durability;
            this.listener = listener;
            this.clock = clock;
            this.leaseUntil = leaseUntil;
            this.with = with;
        }

        /** The settlement of a change that is one. */
        Settlement settlement() {
            return Objects.requireNonNull(settlement);
        }

        /** Whether this change is a settlement handed over without waiting, which a failed transaction keeps. */
        boolean handedOver() {
            return listener != null && settlement != null && clock != null;
        }

        /** Whether a failed transaction may be tried again for this change: a settlement handed over, lease left. */
        boolean retryable() {
            return handedOver() && Objects.requireNonNull(clock).millis() < leaseUntil;
        }

        /** Stamps the settlement with its clock's time for another attempt, or tells that its lease has ended. */
        boolean restampWithinLease() {
            Clock time = Objects.requireNonNull(clock);
            long now = time.millis();
            if (now >= leaseUntil) {
                return false;
            }
            settlement = settlement().at(now);
            return true;
        }

        void finish(@Nullable RuntimeException transactionFailure) {
            failure = transactionFailure;
            done = true;
            Settled told = listener;
            if (told != null) {
                try {
                    told.settled(transactionFailure == null ? outcome : null, transactionFailure);
                } catch (RuntimeException failed) {
                    log.warn("Reporting a settlement failed", failed);
                }
            }
        }

        void throwIfFailed() {
            RuntimeException thrown = failure;
            if (thrown != null) {
                throw thrown;
            }
        }
    }
}
