package io.localqueue.internal;

import io.localqueue.DurabilityMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Folds the small fenced writes (ack, nack, fail, lease renewal) that threads submit at the same moment into one
 * write transaction: whichever thread gets to commit first takes everything waiting, runs each statement in turn,
 * commits once and hands every thread its own result. A thread's call still returns only after the commit that
 * holds its statement, each statement keeps its own fence, and a statement that matches nothing fails alone.
 * One thread on its own pays one uncontended lock and queue hand-off.
 */
final class GroupCommit {

    /** The most statements folded into one transaction. */
    static final int MAX_BATCH = 1024;

    private final Database database;
    private final ConcurrentLinkedQueue<Request<?>> pending = new ConcurrentLinkedQueue<>();
    private final ReentrantLock combiner = new ReentrantLock();

    GroupCommit(Database database) {
        this.database = database;
    }

    /**
     * Runs {@code statement} in a transaction shared with whatever else is waiting, and returns its result once
     * that transaction has committed.
     */
    <R> R submit(DurabilityMode mode, WriteWork<R> statement) {
        Request<R> request = new Request<>(mode, statement);
        pending.add(request);
        combiner.lock();
        try {
            if (!request.done) {
                commitPending();
            }
        } finally {
            combiner.unlock();
        }
        return request.result();
    }

    private void commitPending() {
        List<Request<?>> batch = new ArrayList<>();
        Request<?> next;
        while (batch.size() < MAX_BATCH && (next = pending.poll()) != null) {
            batch.add(next);
        }
        DurabilityMode mode = DurabilityMode.RELAXED;
        for (Request<?> request : batch) {
            if (request.mode == DurabilityMode.DURABLE) {
                mode = DurabilityMode.DURABLE;
            }
        }
        try {
            database.write(mode, Database.WRITE_BUDGET_NANOS, () -> { }, jdbc -> {
                for (Request<?> request : batch) {
                    request.run(jdbc);
                }
                return null;
            });
            for (Request<?> request : batch) {
                request.finish(null);
            }
        } catch (RuntimeException failure) {
            for (Request<?> request : batch) {
                request.finish(failure);
            }
        }
    }

    /** One submitted statement and, once its transaction ended, its outcome. */
    private static final class Request<R> {
        final DurabilityMode mode;
        final WriteWork<R> statement;
        @Nullable R value;
        @Nullable RuntimeException failure;
        volatile boolean done;

        Request(DurabilityMode mode, WriteWork<R> statement) {
            this.mode = mode;
            this.statement = statement;
        }

        /** Runs inside the shared transaction; a failure of its own is kept for its caller alone. */
        void run(JdbcTemplate jdbc) {
            value = null;
            failure = null;
            try {
                value = statement.run(jdbc);
            } catch (DataAccessException databaseFailure) {
                throw databaseFailure; // the transaction itself failed (or must be retried): all share it
            } catch (RuntimeException own) {
                failure = own;
            }
        }

        void finish(@Nullable RuntimeException transactionFailure) {
            if (transactionFailure != null) {
                value = null;
                failure = transactionFailure;
            }
            done = true;
        }

        R result() {
            RuntimeException thrown = failure;
            if (thrown != null) {
                throw thrown;
            }
            return value;
        }
    }
}
