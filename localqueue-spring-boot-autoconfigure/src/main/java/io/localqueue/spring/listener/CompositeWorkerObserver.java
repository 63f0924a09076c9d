package io.localqueue.spring.listener;

import io.localqueue.FailureReason;
import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.WorkerObserver;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Tells several observers, in order, of everything a worker reports; each listener's worker gets the listener's own
 * view of those that are {@link ListenerAwareObserver}s.
 *
 * @since 0.1.0
 */
public final class CompositeWorkerObserver implements ListenerAwareObserver {

    private final List<WorkerObserver> observers;

    private CompositeWorkerObserver(List<WorkerObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /**
     * Combines observers: none gives {@link WorkerObserver#NONE}, one gives that one.
     *
     * @param observers the observers, in the order they are told
     * @return an observer telling them all
     */
    public static WorkerObserver of(List<WorkerObserver> observers) {
        if (observers.isEmpty()) {
            return WorkerObserver.NONE;
        }
        return observers.size() == 1 ? observers.get(0) : new CompositeWorkerObserver(observers);
    }

    @Override
    public WorkerObserver forListener(String listenerId) {
        return new CompositeWorkerObserver(observers.stream()
                .map(observer -> ListenerAwareObserver.of(observer, listenerId)).toList());
    }

    @Override
    public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
        observers.forEach(observer -> observer.jobFinished(job, outcome, handlerTime, error));
    }

    @Override
    public void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
        observers.forEach(observer -> observer.leaseExpired(queueName, jobId, attempts, deadLettered));
    }

    @Override
    public void jobUndecodable(String queueName, long jobId, int attempts, String decodeError) {
        observers.forEach(observer -> observer.jobUndecodable(queueName, jobId, attempts, decodeError));
    }

    @Override
    public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                int attempts) {
        observers.forEach(observer -> observer.jobDeadLettered(queueName, jobId, reason, lastError, attempts));
    }

    /** Names the observers, for the log line of a slow report. */
    @Override
    public String toString() {
        return observers.toString();
    }
}
