package io.localqueue.spring.actuate;

import io.localqueue.FailureReason;
import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.QueueLimit;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.DeferredEnqueueFailedEvent;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.listener.ListenerAwareObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;

/**
 * Micrometer meters of localqueue: gauge {@code localqueue.jobs} (tags {@code queue}, {@code state}); gauge
 * {@code localqueue.jobs.oldest.age}, the seconds the oldest due job has waited (the queue's lag; tag {@code queue});
 * counter {@code localqueue.jobs.processed} and timer {@code localqueue.job.duration} (tags {@code queue},
 * {@code outcome}, {@code listener}); counter {@code localqueue.leases.expired} (tags {@code queue},
 * {@code listener}, {@code result}: {@code ready} or {@code dead_lettered}) of leases that ran out before their job
 * was settled; counter {@code localqueue.dead-letters} (tags {@code queue}, {@code reason}) of every dead letter,
 * the bus's included; and counter {@code localqueue.jobs.deferred.lost} (tag {@code queue}) of jobs deferred to a
 * transaction's commit whose write failed after it. A job whose payload could not be decoded counts as processed with
 * outcome {@code dead_lettered}, without a handler time. The {@code listener} tag is the listener's id, or
 * {@value #NO_LISTENER} for a worker outside any. Gauges read the queue's last snapshot ({@link ObservedQueues}), so
 * that a scrape never waits for a count of a queue's jobs; the lag is the one measured when the snapshot was taken.
 * The counter and timer of each queue and outcome are built once and kept.
 *
 * @since 0.1.0
 */
public class LocalQueueMetrics implements MeterBinder, ListenerAwareObserver,
        ApplicationListener<DeferredEnqueueFailedEvent> {

    /** The {@code listener} tag of jobs handled by a worker that is not a listener's. */
    public static final String NO_LISTENER = "none";

    private static final Logger log = LoggerFactory.getLogger(LocalQueueMetrics.class);

    private final LocalQueueRegistry queues;
    private final ObservedQueues observed;
    private final Map<Outcome, OutcomeMeters> outcomeMeters = new ConcurrentHashMap<>();
    private final Set<String> gauged = ConcurrentHashMap.newKeySet();
    private volatile @Nullable MeterRegistry registry;

    /**
     * Creates the meters' source.
     *
     * @param observed the application's queues, as they are reported
     */
    public LocalQueueMetrics(ObservedQueues observed) {
        this.queues = observed.queues();
        this.observed = observed;
    }

    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        this.registry = meterRegistry;
        outcomeMeters.clear();
        try {
            queues.queueNames().forEach(this::registerGauges);
        } catch (RuntimeException unreadable) {
            log.warn("Cannot list localqueue queues for metrics", unreadable);
        }
    }

    @Override
    public WorkerObserver forListener(String listenerId) {
        return new WorkerObserver() {
            @Override
            public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
                finished(listenerId, job, outcome, handlerTime);
            }

            @Override
            public void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
                expired(listenerId, queueName, deadLettered);
            }

            @Override
            public void jobUndecodable(String queueName, long jobId, int attempts, String decodeError) {
                undecodable(listenerId, queueName);
            }

            @Override
            public void jobDeadLettered(String queueName, long jobId, FailureReason reason,
                                        @Nullable String lastError, int attempts) {
                LocalQueueMetrics.this.jobDeadLettered(queueName, jobId, reason, lastError, attempts);
            }

            @Override
            public String toString() {
                return "localqueue metrics of listener " + listenerId;
            }
        };
    }

    @Override
    public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
        finished(NO_LISTENER, job, outcome, handlerTime);
    }

    @Override
    public void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
        expired(NO_LISTENER, queueName, deadLettered);
    }

    @Override
    public void jobUndecodable(String queueName, long jobId, int attempts, String decodeError) {
        undecodable(NO_LISTENER, queueName);
    }

    @Override
    public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                int attempts) {
        MeterRegistry meters = registry;
        if (meters != null) {
            DeadLetterMeter.count(meters, queueName, reason);
        }
    }

    private void undecodable(String listener, String queueName) {
        MeterRegistry meters = registry;
        if (meters != null) {
            outcomeMeters.computeIfAbsent(new Outcome(queueName, listener, JobOutcome.DEAD_LETTERED),
                    key -> register(meters, key)).processed.increment();
        }
    }

    private void finished(String listener, Job<?> job, JobOutcome outcome, Duration handlerTime) {
        MeterRegistry meters = registry;
        if (meters == null) {
            return;
        }
        OutcomeMeters recorded = outcomeMeters.computeIfAbsent(new Outcome(job.queueName(), listener, outcome),
                key -> register(meters, key));
        recorded.processed.increment();
        recorded.duration.record(handlerTime);
        recorded.lateness.record(Duration.between(job.dueAt(), job.claimedAt()));
    }

    private void expired(String listener, String queueName, boolean deadLettered) {
        MeterRegistry meters = registry;
        if (meters == null) {
            return;
        }
        // Rare enough that the registry's own lookup of an existing counter is no cost.
        Counter.builder("localqueue.leases.expired")
                .description("Leases that ran out before their job was settled, by what became of the job")
                .tag("queue", queueName).tag("listener", listener)
                .tag("result", deadLettered ? "dead_lettered" : "ready")
                .register(meters).increment();
    }

    /** Counts the jobs lost when their write after a transaction's commit failed. */
    @Override
    public void onApplicationEvent(DeferredEnqueueFailedEvent lost) {
        MeterRegistry meters = registry;
        if (meters == null) {
            return;
        }
        Counter.builder("localqueue.jobs.deferred.lost")
                .description("Jobs deferred to a transaction's commit whose write after the commit failed")
                .tag("queue", lost.getQueue())
                .register(meters).increment(lost.getJobCount());
    }

    /** Builds the meters of one queue and outcome, once; its queue's gauges come with the first. */
    private OutcomeMeters register(MeterRegistry meters, Outcome key) {
        registerGauges(key.queue);
        Counter processed = Counter.builder("localqueue.jobs.processed")
                .description("Jobs whose handler finished, by outcome")
                .tag("queue", key.queue).tag("outcome", key.outcome.tag()).tag("listener", key.listener)
                .register(meters);
        Timer duration = Timer.builder("localqueue.job.duration")
                .description("Time spent in job handlers")
                .tag("queue", key.queue).tag("outcome", key.outcome.tag()).tag("listener", key.listener)
                .register(meters);
        Timer lateness = Timer.builder("localqueue.claim.lateness")
                .description("How long after its due time each job was claimed: claim time minus due time")
                .tag("queue", key.queue).tag("listener", key.listener)
                .publishPercentiles(0.5, 0.99)
                .register(meters);
        return new OutcomeMeters(processed, duration, lateness);
    }

    private void registerGauges(String queue) {
        MeterRegistry meters = registry;
        if (meters == null || !gauged.add(queue)) {
            return;
        }
        Tags tags = Tags.of("queue", queue);
        CountGauges.register(meters, "localqueue.jobs", "jobs", tags, () -> observed.stats(queue),
                () -> observed.diagnostics(queue), log);
        CountGauges.registerHeld(meters, "localqueue.jobs", tags, () -> observed.diagnostics(queue), log);
        for (QueueLimit limit : QueueLimit.values()) {
            FunctionCounter.builder("localqueue.claims.held", observed.queues(),
                            queues -> queues.claimsHeldBy(queue, limit))
                    .description("Claims in this process that found due jobs and took none because a limit of the "
                            + "queue held them back")
                    .tag("queue", queue).tag("limit", limit.name().toLowerCase(Locale.ROOT))
                    .register(meters);
        }
    }

    private record Outcome(String queue, String listener, JobOutcome outcome) {
    }

    private record OutcomeMeters(Counter processed, Timer duration, Timer lateness) {
    }
}
