package io.localqueue.internal.engine;

import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.WriteOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Folds the writes that producers of one database make at the same moment (puts, dispatches) into one write
 * transaction, and hands every caller its own outcome; a handler's emitted events go with its acknowledgement through
 * {@link GroupCommit} instead.
 *
 * <p>A caller adds its write and then commits until its write is done, unless another caller's commit takes it first:
 * whichever waiting thread gets the lock commits everything pending, in the order it was added, so one thread alone
 * pays one uncontended lock and never lingers. The commit uses the strongest durability asked for in it.
 *
 * <p>Outcomes stay per caller. Each write runs its own transition inside the shared transaction, so a duplicate job
 * id still returns the existing id and a queue's limit counts the jobs put before it in the same transaction; a put
 * that finds no room is handed back to its caller, which waits for room as before. A write whose own statements throw
 * (a deduplication conflict, say) rolls the transaction back: it fails alone with the cause, and the others run again
 * in the next transaction without it. A transaction that fails anywhere else (BEGIN, COMMIT) fails every write in it,
 * with the cause, and stores none of them.
 */
final class ProducerGroup {

    /** The most writes folded into one transaction. */
    static final int MAX_WRITES = 256;

    /** The most jobs folded into one transaction, past which the next put waits for the next one. */
    static final int MAX_JOBS = 10_000;

    /** How long a combiner waits at most for the threads that wrote together last time to write again. */
    static final long GATHER_NANOS = 50_000;

    private final QueueStore store;
    private final ConcurrentLinkedQueue<Write> pending = new ConcurrentLinkedQueue<>();
    private final ReentrantLock combiner = new ReentrantLock();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile int lastBatch;

    ProducerGroup(QueueStore store) {
        this.store = store;
    }

    /**
     * Enqueues jobs into a queue in a transaction shared with the other writes pending, and returns once it committed.
     *
     * @param into the queue and its settings
     * @param jobs the jobs, in order
     * @param durability the durability this put asks for
     * @return the put's own outcome: its ids in its order, or no room
     */
    Enqueued put(EnqueueInto into, List<NewJob> jobs, DurabilityMode durability) {
        return (Enqueued) commitWith(new Write("enqueue", durability, new Put(into, jobs), null));
    }

    /**
     * Runs a producer's transitions in a transaction shared with the other writes pending, and returns their result
     * once it committed; throwing rolls back this caller's transitions only.
     *
     * @param transaction what the transaction does (the first write of a shared one names it)
     * @param durability the durability this write asks for
     * @param work the transitions
     * @param <R> the result type
     * @return the work's result
     */
    @SuppressWarnings("unchecked")
    <R> R write(String transaction, DurabilityMode durability, StoreWork<R> work) {
        return (R) commitWith(new Write(transaction, durability, null, work));
    }

    private @Nullable Object commitWith(Write write) {
        pending.add(write);
        waiting.incrementAndGet();
        boolean interrupted = false;
        while (!write.done) {
            if (combiner.tryLock()) {
                try {
                    while (!write.done) {
                        gather();
                        commitPending();
                    }
                } finally {
                    combiner.unlock();
                    wakeNext();
                }
            } else {
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return write.result();
    }

    /**
     * Wakes the next write in line, which commits what gathered meanwhile, rather than every waiter taking the lock in
     * turn only to find its write done.
     */
    private void wakeNext() {
        Write next = pending.peek();
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
    }

    /**
     * Gives the threads that wrote together last time a moment to write again before committing, when the last
     * transaction held more than one write: a thread writing alone never waits.
     */
    private void gather() {
        int expected = lastBatch;
        if (expected < 2) {
            return;
        }
        long until = System.nanoTime() + GATHER_NANOS;
        while (waiting.get() < expected && System.nanoTime() - until < 0) {
            Thread.yield();
        }
    }

    /** Commits the pending writes, up to the bounds, in one transaction; the caller holds the combiner. */
    private void commitPending() {
        List<Write> batch = new ArrayList<>();
        int jobs = 0;
        Write next;
        while (batch.size() < MAX_WRITES && (next = pending.peek()) != null
                && (batch.isEmpty() || jobs + next.jobs() <= MAX_JOBS)) {
            batch.add(pending.poll());
            waiting.decrementAndGet();
            jobs += next.jobs();
        }
        lastBatch = batch.size();
        try {
            commit(batch);
        } catch (RuntimeException | Error failure) {
            // each caller of the batch rethrows it; the combiner goes on, since its own write may be in a later batch
            for (Write write : batch) {
                write.fail(failure);
            }
        } finally {
            finish(batch);
        }
    }

    /**
     * Marks every write of a batch done, and only then wakes each of their callers that waits. A chain in which each
     * woken caller woke the next lost callers for good: a caller that saw its own write done while the combiner was
     * still marking the others woke the next one too early, which found its write not yet done and waited again with
     * nobody left to wake it. Waking all at once is also faster on two cores, where the chain spent one wake-up's
     * latency per caller before the last could put again.
     */
    private static void finish(List<Write> batch) {
        for (Write write : batch) {
            write.done = true;
        }
        Thread combining = Thread.currentThread();
        for (Write write : batch) {
            if (write.thread != combining) {
                LockSupport.unpark(write.thread);
            }
        }
    }

    /**
     * Commits a batch; when one write's own transitions throw, fails that write with the transaction's failure and
     * commits the rest again without it, and when puts run together as one enqueue, first runs them apart to find it.
     */
    private void commit(List<Write> batch) {
        List<Write> left = new ArrayList<>(batch);
        boolean together = true;
        while (!left.isEmpty()) {
            Attempt attempt = new Attempt(left, together);
            try {
                List<@Nullable Object> results = store.write(
                        WriteOptions.standard(left.get(0).transaction,
                                SharedDurability.of(left, write -> write.durability)), () -> { }, attempt::run);
                for (int i = 0; i < left.size(); i++) {
                    left.get(i).succeed(results.get(i));
                }
                return;
            } catch (RuntimeException failure) {
                if (attempt.failedAt < 0 || left.size() == 1) {
                    for (Write write : left) {
                        write.fail(failure);
                    }
                    return;
                }
                if (attempt.failedTogether) {
                    together = false;
                } else {
                    left.remove(attempt.failedAt).fail(failure);
                }
            }
        }
    }

    /**
     * One run of a batch's transitions in a transaction, remembering which write threw; with {@code together}, puts in
     * a row to one queue under the same settings go in as one enqueue (so plain jobs go in by multi-row inserts, as a
     * putMany's do), split back into each put's ids, and a row of puts that does not fit as a whole goes in put by
     * put, so that the puts that fit under the limit do.
     */
    private static final class Attempt {

        private final List<Write> writes;
        private final boolean together;
        int failedAt = -1;
        boolean failedTogether;

        Attempt(List<Write> writes, boolean together) {
            this.writes = writes;
            this.together = together;
        }

        List<@Nullable Object> run(QueueWrites transitions) {
            failedAt = -1;
            failedTogether = false;
            List<@Nullable Object> results = new ArrayList<>(writes.size());
            int from = 0;
            while (from < writes.size()) {
                int to = together ? rowEnd(from) : from + 1;
                try {
                    if (to - from == 1) {
                        results.add(writes.get(from).run(transitions));
                    } else {
                        enqueueRow(transitions, writes.subList(from, to), results);
                    }
                } catch (RuntimeException | Error failure) {
                    failedAt = from;
                    failedTogether = to - from > 1;
                    throw failure;
                }
                from = to;
            }
            return results;
        }

        /** The end of the row of puts starting at {@code from} that can go in as one enqueue. */
        private int rowEnd(int from) {
            Put first = writes.get(from).put;
            int to = from + 1;
            while (first != null && to < writes.size() && first.sameQueue(writes.get(to).put)) {
                to++;
            }
            return to;
        }

        private static void enqueueRow(QueueWrites transitions, List<Write> row, List<@Nullable Object> results) {
            Put first = row.get(0).putOrFail();
            List<NewJob> jobs = new ArrayList<>();
            for (Write write : row) {
                jobs.addAll(write.putOrFail().jobs);
            }
            Enqueued together = first.enqueue(transitions, jobs);
            List<Long> ids = together.ids();
            if (ids == null) {
                for (Write write : row) {
                    results.add(write.run(transitions));
                }
                return;
            }
            int offset = 0;
            for (Write write : row) {
                int size = write.putOrFail().jobs.size();
                results.add(Enqueued.written(ids.subList(offset, offset + size)));
                offset += size;
            }
        }
    }

    /** One caller's write and, once done, its result or its failure. */
    private static final class Write {

        final String transaction;
        final DurabilityMode durability;
        final @Nullable Put put;
        final @Nullable StoreWork<?> work;
        final Thread thread = Thread.currentThread();
        volatile boolean done;
        private @Nullable Object result;
        private @Nullable Throwable failure;

        Write(String transaction, DurabilityMode durability, @Nullable Put put, @Nullable StoreWork<?> work) {
            this.transaction = transaction;
            this.durability = durability;
            this.put = put;
            this.work = work;
        }

        int jobs() {
            return put == null ? 1 : put.jobs.size();
        }

        Put putOrFail() {
            if (put == null) {
                throw new IllegalStateException("not a put");
            }
            return put;
        }

        @Nullable Object run(QueueWrites transitions) {
            if (put != null) {
                return put.enqueue(transitions, put.jobs);
            }
            return work == null ? null : work.run(transitions);
        }

        void succeed(@Nullable Object value) {
            if (!done && failure == null) {
                result = value;
            }
        }

        void fail(Throwable cause) {
            if (!done && failure == null) {
                failure = cause;
            }
        }

        @Nullable Object result() {
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            return result;
        }
    }

    /** A put's jobs and the enqueue they go in by. */
    private record Put(EnqueueInto into, List<NewJob> jobs) {

        Enqueued enqueue(QueueWrites transitions, List<NewJob> some) {
            return into.run(transitions, some);
        }

        /** Whether another write puts into the same queue under the same settings, so the two can be one enqueue. */
        boolean sameQueue(@Nullable Put other) {
            return other != null && into.sameAs(other.into);
        }
    }
}
