package io.localqueue.benchmark;

import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.time.Duration;

/**
 * Validation of a queue's final state, and the wait for it.
 */
final class QueueChecks {

    /**
     * How often {@link #awaitAcknowledged} counts. Counting reads every row of the queue, so counting often would
     * take a share of the CPU from what is measured; the wait only decides when the children are stopped, since the
     * measured regions end at the commit of the last acknowledgement.
     */
    private static final long STATS_POLL_MILLIS = 500;

    private QueueChecks() {
    }

    /**
     * Passes when the queue's counts are exactly the expected ones.
     *
     * @param queue the queue
     * @param ready expected ready jobs
     * @param processing expected leased jobs
     * @param acked expected acknowledged jobs
     * @param failed expected dead letters
     * @return the validation
     */
    static Validation counts(SimpleQueue<?> queue, long ready, long processing, long acked, long failed) {
        QueueStats expected = new QueueStats(ready, processing, acked, failed);
        QueueStats actual = queue.stats();
        return Validation.check(actual.equals(expected), "queue counts " + describe(actual)
                + (actual.equals(expected) ? "" : ", expected " + describe(expected)));
    }

    /**
     * Counts the queue's jobs every {@link #STATS_POLL_MILLIS} ms until {@code total} are acknowledged or the
     * timeout passes.
     *
     * @param queue the queue
     * @param total the acknowledgements awaited
     * @param timeout the longest wait
     * @return the last counts, short of {@code total} when the timeout passed
     * @throws InterruptedException when interrupted while waiting
     */
    static QueueStats awaitAcknowledged(SimpleQueue<?> queue, long total, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        QueueStats stats = queue.stats();
        while (stats.acked() < total && System.nanoTime() - deadline < 0) {
            Thread.sleep(STATS_POLL_MILLIS);
            stats = queue.stats();
        }
        return stats;
    }

    private static String describe(QueueStats stats) {
        return "ready=" + stats.ready() + " processing=" + stats.processing() + " acked=" + stats.acked()
                + " failed=" + stats.failed();
    }
}
