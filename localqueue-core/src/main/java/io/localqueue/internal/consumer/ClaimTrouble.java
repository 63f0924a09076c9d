package io.localqueue.internal.consumer;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * What a worker's pollers do when claiming keeps failing (a damaged file, a full disk, a vanished directory): pause
 * for longer after each failure in a row, up to {@value #MAX_PAUSE_MS} ms, and log the first failure with its stack
 * trace, then at most one line per {@value #REPORT_INTERVAL_MS} ms with the count and the last error, and one line
 * when claims work again. Shared by all threads of one consumer.
 */
public final class ClaimTrouble {

    /** The pause after the first failure in a row, doubling with each further one. */
    public static final long FIRST_PAUSE_MS = 200;
    /** The longest pause between failing claims. */
    public static final long MAX_PAUSE_MS = 10_000;
    /** How often a run of failures is reported after its first. */
    public static final long REPORT_INTERVAL_MS = 60_000;

    private final Logger log;
    private final String consumer;
    private final String queue;
    private final LongSupplier nanoTime;
    private volatile int inARow;
    private int sinceReport;
    private long reportedAt;

    /**
     * Creates the record of one consumer's failing claims.
     *
     * @param log where the failures are reported
     * @param consumer the consumer, as a sentence names it: {@code Worker 'emails'}
     * @param queue the queue it claims from, for the report
     */
    public ClaimTrouble(Logger log, String consumer, String queue) {
        this(log, consumer, queue, System::nanoTime);
    }

    /**
     * Creates the record with a clock of its own, for tests.
     *
     * @param log where the failures are reported
     * @param consumer the consumer, as a sentence names it
     * @param queue the queue's name
     * @param nanoTime the monotonic clock that spaces the reports
     */
    public ClaimTrouble(Logger log, String consumer, String queue, LongSupplier nanoTime) {
        this.log = log;
        this.consumer = consumer;
        this.queue = queue;
        this.nanoTime = nanoTime;
    }

    /**
     * Records a failed claim and logs it if due.
     *
     * @param failure what the claim threw; its message carries SQLite's own words
     * @return how long the poller pauses before it tries again, in milliseconds
     */
    public synchronized long failed(RuntimeException failure) {
        inARow++;
        sinceReport++;
        long pause = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS << Math.min(inARow - 1, 16));
        long now = nanoTime.getAsLong();
        if (inARow == 1) {
            log.warn("{} failed to claim from queue '{}'; trying again in {} ms: {}", consumer, queue, pause,
                    failure.getMessage(), failure);
            reportedAt = now;
            sinceReport = 0;
        } else if (now - reportedAt >= TimeUnit.MILLISECONDS.toNanos(REPORT_INTERVAL_MS)) {
            log.warn("{} still fails to claim from queue '{}': {} failures in a row, {} since the last "
                    + "report; trying again in {} ms; the last: {}", consumer, queue, inARow, sinceReport, pause,
                    failure.getMessage());
            reportedAt = now;
            sinceReport = 0;
        }
        return pause;
    }

    /** Records a claim that worked, logging the recovery after a run of failures. */
    public void succeeded() {
        if (inARow == 0) {
            return; // the common case, read without the lock: a stale zero only delays the recovery line
        }
        synchronized (this) {
            if (inARow > 0) {
                log.info("{} claims from queue '{}' again after {} failed claim(s)", consumer, queue, inARow);
                inARow = 0;
                sinceReport = 0;
            }
        }
    }
}
