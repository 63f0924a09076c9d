package io.localqueue.internal.engine;

import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueWrites;
import java.time.Clock;
import java.util.List;

/**
 * The enqueue transition of one queue under its settings, stamped with the queue's clock when it runs.
 *
 * @param queue the queue
 * @param maxAttempts the queue's delivery budget
 * @param clock the queue's clock
 * @param maxPendingJobs the queue's limit (ready plus leased), or 0 for none
 */
record EnqueueInto(String queue, int maxAttempts, Clock clock, long maxPendingJobs) {

    /** Enqueues jobs in the transaction of {@code writes}: their ids in order, or no room. */
    Enqueued run(QueueWrites writes, List<NewJob> jobs) {
        return writes.enqueue(queue, jobs, maxAttempts, clock.millis(), maxPendingJobs);
    }

    /** Whether another enqueue goes into the same queue under the same settings, so that the two can be one. */
    boolean sameAs(EnqueueInto other) {
        return queue.equals(other.queue) && maxAttempts == other.maxAttempts && clock == other.clock
                && maxPendingJobs == other.maxPendingJobs;
    }
}
