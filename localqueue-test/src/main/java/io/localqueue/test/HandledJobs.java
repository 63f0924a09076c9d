package io.localqueue.test;

import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.WorkerObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The worker observer the test kit contributes: records every delivery a listener finished, per queue, until a drain
 * takes them, and wakes a drain waiting for the next one.
 */
final class HandledJobs implements WorkerObserver {

    private final Map<String, List<HandledJob>> byQueue = new HashMap<>();

    @Override
    public synchronized void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime,
                                         @Nullable Throwable error) {
        byQueue.computeIfAbsent(job.queueName(), queue -> new ArrayList<>())
                .add(new HandledJob(job.queueName(), job.id(), job.attempts(), job.data(), outcome, error,
                        handlerTime));
        notifyAll();
    }

    /** Returns the deliveries of {@code queue} finished since the last take, oldest first, and forgets them. */
    synchronized List<HandledJob> take(String queue) {
        List<HandledJob> handled = byQueue.remove(queue);
        return handled == null ? List.of() : List.copyOf(handled);
    }

    /** Returns the deliveries of {@code queue} finished since the last take, keeping them. */
    synchronized List<HandledJob> peek(String queue) {
        return List.copyOf(byQueue.getOrDefault(queue, List.of()));
    }

    /** Forgets every delivery recorded so far, so that a test starts with none of an earlier test's. */
    synchronized void clear() {
        byQueue.clear();
    }

    /** Waits until a delivery finishes or {@code nanos} pass, whichever comes first. */
    synchronized void awaitNext(long nanos) throws InterruptedException {
        if (nanos > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, nanos);
        }
    }
}
