package io.localqueue;

import io.localqueue.internal.consumer.FailurePolicy;
import io.localqueue.internal.consumer.ReportLane;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.Settlement;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Records a worker's handler results by the consumers' one {@link FailurePolicy} (a return acknowledges, a permanent
 * error dead-letters, any other exception retries with {@code lastError} "ExceptionClass: message", after the wait of
 * the worker's {@link RetryPolicy} or of a {@link RetryLaterException}) and reports them. A settlement is handed to the engine without waiting for its commit, and once its transaction committed the outcome
 * is logged when it deserves a line, then reported (the observer, then the worker's count of jobs in hand) on the
 * worker's {@link ReportLane}, never on the thread that commits; one the database kept failing to record until the job's lease
 * ended reports {@link JobOutcome#DISCARDED}, and the job returns. A payload that cannot be decoded is reported as a
 * dead letter through the same lane.
 */
final class Outcomes<T> {

    private final Logger log;
    private final SimpleQueue<T> queue;
    private final QueueEngine engine;
    private final FailurePolicy policy;
    private final WorkerObserver observer;
    private final Runnable jobFinished;
    private final ReportLane lane;

    /**
     * Creates the outcome rules of a worker.
     *
     * @param queue the worker's queue
     * @param policy how a handler's result becomes a settlement
     * @param observer told about every outcome, on {@code lane}
     * @param jobFinished called once per job once its outcome was reported
     * @param lane where the outcomes are reported
     * @param log the worker's logger, so that one category holds everything a worker reports
     */
    Outcomes(SimpleQueue<T> queue, FailurePolicy policy, WorkerObserver observer, Runnable jobFinished,
             ReportLane lane, Logger log) {
        this.log = log;
        this.queue = queue;
        this.engine = queue.jobs().engine();
        this.policy = policy;
        this.observer = observer;
        this.jobFinished = jobFinished;
        this.lane = lane;
    }

    /** Acknowledges, retries or dead-letters the job by its handler's result, without waiting for the commit. */
    void settle(Job<T> job, @Nullable Throwable error, Duration took) {
        FailurePolicy.Verdict verdict = policy.judge(error, job.attempts() + 1);
        try {
            engine.settleLater(verdict.kind(), job.id(), job.receipt(), verdict.lastError(), verdict.reason(),
                    verdict.category(), verdict.delayMillis(), job.leaseExpiresAt().toEpochMilli(),
                    (outcome, failure) -> report(job, verdict, outcome, failure, took, error));
        } catch (QueueClosedException closed) {
            report(job, verdict, null, closed, took, error);
        }
    }

    /** Reports a job its handler settled itself, through the queue's {@code ack}, {@code nack} or {@code fail}. */
    void settledByHandler(Job<T> job, HandlerSettlement settled, Duration took, @Nullable Throwable error) {
        FailureReason reason = settled.deadLetterReason();
        finished(job, settled.outcome(), took, error, () -> {
            if (reason != null) {
                deadLettered(job.id(), reason, settled.lastError(), job.attempts() + 1);
            }
        });
    }

    /** Reports a job whose result is discarded without any transition: its lease was lost. */
    void discard(Job<T> job, Duration took, @Nullable Throwable error) {
        finished(job, JobOutcome.DISCARDED, took, error, () -> { });
    }

    /**
     * Reports a claimed job whose payload the queue's serializer could not decode, which the queue has made a dead
     * letter ({@link FailureReason#INVALID_PAYLOAD}); no handler ran.
     *
     * @param jobId the job
     * @param attempts its deliveries, this one included
     * @param decodeError why it could not be decoded
     * @param cause what the serializer threw
     */
    void undecodable(long jobId, int attempts, String decodeError, RuntimeException cause) {
        log.error("Job {} of queue '{}' cannot be decoded and is now a dead letter ({}): {}", jobId, queue.name(),
                FailureReason.INVALID_PAYLOAD.value(), decodeError, cause);
        lane.report(() -> "the undecodable payload of job " + jobId, () -> {
            observer.jobUndecodable(queue.name(), jobId, attempts, decodeError);
            deadLettered(jobId, FailureReason.INVALID_PAYLOAD, decodeError, attempts);
        });
    }

    /**
     * Hands back at once, without spending its delivery, a job whose handler the stop interrupted: its failure is
     * the stop's doing, not the job's.
     */
    void release(Job<T> job, Duration took, Throwable error) {
        JobOutcome outcome = JobOutcome.DISCARDED;
        try {
            if (engine.release(job.id(), job.receipt())) {
                outcome = JobOutcome.RELEASED;
                log.warn("Job {} in queue '{}' was interrupted by the worker stopping; it is ready again and the "
                        + "interrupted delivery is not counted", job.id(), queue.name());
            } else {
                log.warn("Job {} in queue '{}' was interrupted by the worker stopping after its lease was lost",
                        job.id(), queue.name());
            }
        } catch (RuntimeException failure) {
            log.warn("Job {} in queue '{}' was interrupted by the worker stopping and could not be handed back; it "
                    + "will be delivered again after its lease", job.id(), queue.name(), failure);
        }
        finished(job, outcome, took, error, () -> { });
    }

    /** Tells the observer of a lease the worker's claims took back. */
    void leaseExpired(ExpiredLease lease) {
        lane.report(() -> "the expired lease of job " + lease.id(), () -> {
            observer.leaseExpired(queue.name(), lease.id(), lease.attempts(), lease.deadLettered());
            if (lease.deadLettered()) {
                deadLettered(lease.id(), FailureReason.RETRIES_EXHAUSTED, lease.lastError(), lease.attempts());
            }
        });
    }

    private void report(Job<T> job, FailurePolicy.Verdict verdict, @Nullable JobOutcome settled,
                        @Nullable RuntimeException failure, Duration took, @Nullable Throwable error) {
        JobOutcome outcome = settled == null ? JobOutcome.DISCARDED : settled;
        log(job, verdict, outcome, failure, error); // at once: a slow observer must not delay it
        finished(job, outcome, took, error, () -> {
            FailureReason reason = verdict.reason();
            if (outcome == JobOutcome.DEAD_LETTERED && reason != null) {
                deadLettered(job.id(), reason, verdict.lastError(), job.attempts() + 1);
            }
        });
    }

    private void log(Job<T> job, FailurePolicy.Verdict verdict, JobOutcome outcome,
                     @Nullable RuntimeException failure, @Nullable Throwable error) {
        String queueName = queue.name();
        if (failure != null) {
            // the database's settlements logged the failure, with this job among others
            log.debug("The result of job {} of queue '{}' was not recorded; it will be delivered again after its "
                    + "lease", job.id(), queueName, failure);
        } else if (outcome == JobOutcome.RETRIED) {
            log.warn("Job {} in queue '{}' failed on delivery {}; it will be retried in {} ms: {}", job.id(),
                    queueName, job.attempts() + 1, verdict.delayMillis(), verdict.lastError());
        } else if (outcome == JobOutcome.DEAD_LETTERED && verdict.reason() == FailureReason.REJECTED) {
            log.warn("Job {} in queue '{}' was rejected by its handler and is now a dead letter{}: {}", job.id(),
                    queueName, verdict.category() == null ? "" : " (" + verdict.category() + ")",
                    verdict.lastError());
        } else if (outcome == JobOutcome.DEAD_LETTERED && verdict.kind() == Settlement.Kind.DEAD_LETTER) {
            log.error("Job {} in queue '{}' failed permanently and is now a dead letter", job.id(), queueName, error);
        } else if (outcome == JobOutcome.DEAD_LETTERED) {
            log.error("Job {} in queue '{}' failed on its last delivery ({} of {}) and is now a dead letter",
                    job.id(), queueName, job.attempts() + 1, queue.delivery().maxAttempts(), error);
        } else if (outcome == JobOutcome.DISCARDED) {
            log.warn("Lease of job {} in queue '{}' expired before its result was recorded; the result is "
                    + "discarded and the job will be delivered again", job.id(), queueName);
        }
    }

    private void deadLettered(long id, FailureReason reason, @Nullable String lastError, int attempts) {
        observer.jobDeadLettered(queue.name(), id, reason, lastError, attempts);
    }

    /**
     * Reports the job on the lane: the observer's {@code jobFinished}, then {@code after} (a dead letter's report);
     * only then is the job counted out of the worker's hands, so that one whose outcome was not told yet still counts
     * as active.
     */
    private void finished(Job<T> job, JobOutcome outcome, Duration took, @Nullable Throwable error, Runnable after) {
        lane.report(() -> "the outcome of job " + job.id(), () -> {
            try {
                try {
                    observer.jobFinished(job, outcome, took, error);
                } finally {
                    after.run();
                }
            } finally {
                jobFinished.run();
            }
        });
    }
}
