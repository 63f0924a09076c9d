package io.localqueue.internal.engine;

import io.localqueue.DurabilityMode;
import io.localqueue.JobOutcome;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.WriteOptions;
import java.util.ArrayList;
import java.util.List;
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
 * failed transaction fails every change in it; the jobs are then delivered again after their leases.
 */
final class GroupCommit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);

    /** The most changes folded into one transaction. */
    static final int MAX_BATCH = 1024;

    /** The most settlements handed over without waiting that may wait for their commit. */
    static final int MAX_WAITING = 4096;

    private static final long ROOM_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final QueueStore store;
    private final ConcurrentLinkedQueue<Change> pending = new ConcurrentLinkedQueue<>();
    private final ReentrantLock combiner = new ReentrantLock();
    private final Semaphore room = new Semaphore(MAX_WAITING);
    private final Semaphore handedOver = new Semaphore(0);
    private final Object committerLifecycle = new Object();
    private volatile @Nullable Thread committer;
    private volatile boolean closed;

    GroupCommit(QueueStore store) {
        this.store = store;
    }

    /**
     * Settles one delivery in a transaction shared with whatever else is pending.
     *
     * @param settlement the settlement
     * @param durability the durability this change asks for; the shared commit uses the strongest asked for
     * @return what it did, once committed
     */
    JobOutcome settle(Settlement settlement, DurabilityMode durability) {
        Change change = new Change(settlement, null, durability, null);
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
        Change change = new Change(null, renewal, durability, null);
        commitWith(change);
        change.throwIfFailed();
        return change.renewed;
    }

    /**
     * Hands a settlement to the committer thread and returns; {@code done} hears the result on that thread after
     * the commit. Waits while {@value #MAX_WAITING} settlements are still waiting, and settles on the calling thread
     * when interrupted or closed meanwhile.
     *
     * @param settlement the settlement
     * @param durability the durability this change asks for
     * @param done told the result; must be quick
     */
    void settleLater(Settlement settlement, DurabilityMode durability, Settled done) {
        Change change = new Change(settlement, null, durability, done);
        if (!takeRoom()) {
            commitWith(change);
            return;
        }
        change.holdsRoom = true;
        pending.add(change);
        handedOver.release();
        startCommitter();
    }

    /** Commits everything submitted so far on the calling thread; every result has been reported when it returns. */
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

    /** The committer thread: commits whenever settlements were handed over, until closed. */
    private void commitHandedOver() {
        while (!closed) {
            handedOver.acquireUninterruptibly();
            handedOver.drainPermits();
            try {
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

    /** Commits up to {@value #MAX_BATCH} pending changes in one transaction; the caller holds the combiner. */
    private void commitPending() {
        List<Change> batch = new ArrayList<>();
        Change next;
        while (batch.size() < MAX_BATCH && (next = pending.poll()) != null) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            return;
        }
        DurabilityMode mode = DurabilityMode.RELAXED;
        List<Settlement> settlements = new ArrayList<>(batch.size());
        List<Renewal> renewals = new ArrayList<>();
        for (Change change : batch) {
            if (change.durability == DurabilityMode.DURABLE) {
                mode = DurabilityMode.DURABLE;
            }
            if (change.settlement != null) {
                settlements.add(change.settlement);
            } else if (change.renewal != null) {
                renewals.add(change.renewal);
            }
        }
        FencedResults results = null;
        RuntimeException failure = null;
        try {
            results = store.write(WriteOptions.standard("settle", mode), () -> { }, writes -> writes.settle(settlements,
                    renewals));
        } catch (RuntimeException failed) {
            failure = failed;
        }
        int settled = 0;
        int renewed = 0;
        for (Change change : batch) {
            if (results != null) {
                if (change.settlement != null) {
                    change.outcome = results.outcomes().get(settled++);
                } else {
                    change.renewed = results.renewed().get(renewed++);
                }
            }
            change.finish(failure);
            if (change.holdsRoom) {
                room.release();
            }
        }
    }

    /** One submitted settlement or renewal and, once its transaction ended, its result. */
    private static final class Change {
        final @Nullable Settlement settlement;
        final @Nullable Renewal renewal;
        final DurabilityMode durability;
        final @Nullable Settled listener;
        boolean holdsRoom;
        JobOutcome outcome = JobOutcome.DISCARDED;
        boolean renewed;
        @Nullable RuntimeException failure;
        /** Written and read under the combiner lock. */
        boolean done;

        Change(@Nullable Settlement settlement, @Nullable Renewal renewal, DurabilityMode durability,
               @Nullable Settled listener) {
            this.settlement = settlement;
            this.renewal = renewal;
            this.durability = durability;
            this.listener = listener;
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
