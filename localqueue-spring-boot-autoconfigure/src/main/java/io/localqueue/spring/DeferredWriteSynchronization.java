package io.localqueue.spring;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;

/**
 * Runs one deferred write after its transaction commits, or drops it. Spring tells every synchronization
 * registered so far of each savepoint it takes, so a savepoint this one never heard of was taken before the write
 * was handed over: rolling back to it drops the write, as it drops the rows written since. Failures after the
 * commit go to the write's {@link DeferredWrite#failed} and never to the committing caller, whose transaction is
 * over; while this runs, further writes of the thread are not deferred, since Spring would no longer run them.
 */
final class DeferredWriteSynchronization implements TransactionSynchronization {

    private static final Logger log = LoggerFactory.getLogger(DeferredWriteSynchronization.class);
    private static final ThreadLocal<Boolean> WRITING = new ThreadLocal<>();

    private final DeferredWrite write;
    private final Set<Object> savepointsBefore = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean done;

    DeferredWriteSynchronization(DeferredWrite write) {
        this.write = write;
    }

    /** Tells whether the calling thread is running a deferred write or telling of its outcome. */
    static boolean isWriting() {
        return WRITING.get() != null;
    }

    @Override
    public void savepoint(Object savepoint) {
        savepointsBefore.add(savepoint);
    }

    @Override
    public void savepointRollback(Object savepoint) {
        if (!done && !savepointsBefore.contains(savepoint)) {
            done = true;
            write.rolledBack();
        }
    }

    @Override
    public void afterCommit() {
        if (!done) {
            done = true;
            report(write::write);
        }
    }

    /**
     * Drops the write on a rollback, and writes on a commit whose {@link #afterCommit} Spring skipped because an
     * earlier synchronization's threw.
     */
    @Override
    public void afterCompletion(int status) {
        if (done) {
            return;
        }
        done = true;
        switch (status) {
            case STATUS_COMMITTED -> report(write::write);
            case STATUS_ROLLED_BACK -> write.rolledBack();
            default -> report(() -> {
                throw new IllegalStateException("the outcome of the transaction is unknown, so what it deferred "
                        + "was not written");
            });
        }
    }

    /** Runs {@code attempt}, handing its failure to the write, with further writes of the thread not deferred. */
    private void report(Runnable attempt) {
        WRITING.set(Boolean.TRUE);
        try {
            try {
                attempt.run();
            } catch (RuntimeException failure) {
                write.failed(failure);
            }
        } catch (RuntimeException reporting) {
            log.error("Reporting the failure of a write deferred to a transaction's commit failed too", reporting);
        } finally {
            WRITING.remove();
        }
    }
}
