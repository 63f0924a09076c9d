package io.localqueue.spring.listener;

import io.localqueue.WorkerObserver;

/**
 * A worker observer that wants to know which listener it hears from, such as the metrics that tag job meters with
 * the listener id: a container factory gives each listener's worker the observer {@link #forListener} returns
 * instead of this one. Direct calls to this observer come from workers outside any listener.
 *
 * @since 0.1.0
 */
public interface ListenerAwareObserver extends WorkerObserver {

    /**
     * Returns the observer of one listener's worker.
     *
     * @param listenerId the listener's id
     * @return the observer, told of that listener's jobs only
     */
    WorkerObserver forListener(String listenerId);

    /**
     * Returns the observer of {@code listenerId}'s worker: the listener's own view of {@code observer} when it is
     * listener-aware, else {@code observer} itself.
     *
     * @param observer any observer
     * @param listenerId the listener's id
     * @return the observer to give that listener's worker
     */
    static WorkerObserver of(WorkerObserver observer, String listenerId) {
        return observer instanceof ListenerAwareObserver aware ? aware.forListener(listenerId) : observer;
    }
}
