package io.localqueue;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Receives what a {@link Worker} does, for metrics and logs; called on the worker's threads, so it must be quick
 * and must not throw (anything it throws is logged and ignored).
 *
 * @since 0.1.0
 */
public interface WorkerObserver {

    /** An observer that ignores everything. */
    WorkerObserver NONE = new WorkerObserver() {
    };

    /**
     * Called once per delivery after its outcome is settled (or, for {@link JobOutcome#DISCARDED}, abandoned).
     *
     * @param job the delivery
     * @param outcome what happened to it
     * @param handlerTime how long the handler ran
     * @param error what the handler threw, or null when it returned
     */
    default void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
    }
}
