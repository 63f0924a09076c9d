package io.localqueue.internal.engine;

import io.localqueue.internal.store.ExpiredLease;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells of the leases a reclaim of one queue took back, whichever process's delivery they were, expired or held by a
 * process that ended: a warning for each job that became a dead letter, one line for those that are ready again, and
 * a call to every listener, such as the observers of the workers on the queue.
 */
public final class LeaseExpiries {

    private static final Logger log = LoggerFactory.getLogger(LeaseExpiries.class);

    private final String queue;
    private final List<Consumer<ExpiredLease>> listeners = new CopyOnWriteArrayList<>();

    LeaseExpiries(String queue) {
        this.queue = queue;
    }

    /**
     * Adds a listener; it must be quick and must not throw (what it throws is logged and ignored).
     *
     * @param listener called once per expired lease
     * @return removes the listener again
     */
    public Runnable listen(Consumer<ExpiredLease> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /**
     * Tells of leases taken back.
     *
     * @param expired the leases
     * @param holderEnded true when they were taken back because the process holding them ended, false when they
     *                    expired
     */
    void report(List<ExpiredLease> expired, boolean holderEnded) {
        String what = holderEnded ? "was taken back from a process that ended" : "expired";
        List<Long> readyAgain = new ArrayList<>();
        for (ExpiredLease lease : expired) {
            if (lease.deadLettered()) {
                log.warn("Job {} in queue '{}' became a dead letter (retries_exhausted): its lease {} on delivery {} "
                        + "of {} before the job was settled", lease.id(), queue, what, lease.attempts(),
                        lease.maxAttempts());
            } else if (expired.size() == 1) {
                log.info("Lease of job {} in queue '{}' {} on delivery {} of {} before the job was settled; it is "
                        + "ready again", lease.id(), queue, what, lease.attempts(), lease.maxAttempts());
            } else {
                readyAgain.add(lease.id());
            }
            for (Consumer<ExpiredLease> listener : listeners) {
                try {
                    listener.accept(lease);
                } catch (RuntimeException failure) {
                    log.warn("A listener of expired leases on queue '{}' failed", queue, failure);
                }
            }
        }
        if (!readyAgain.isEmpty()) {
            // after a consumer process died, one line for all it held rather than one per job
            log.info("Leases of {} jobs in queue '{}' {} before the jobs were settled; they are ready again (jobs "
                    + "{}{})", readyAgain.size(), queue, holderEnded ? "were taken back from a process that ended"
                    : "expired", readyAgain.subList(0, Math.min(10, readyAgain.size())),
                    readyAgain.size() > 10 ? " and " + (readyAgain.size() - 10) + " more" : "");
        }
    }
}
