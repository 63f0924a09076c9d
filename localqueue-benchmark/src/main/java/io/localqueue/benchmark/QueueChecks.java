package io.localqueue.benchmark;

import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;

/**
 * Validation of a queue's final state.
 */
final class QueueChecks {

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

    private static String describe(QueueStats stats) {
        return "ready=" + stats.ready() + " processing=" + stats.processing() + " acked=" + stats.acked()
                + " failed=" + stats.failed();
    }
}
