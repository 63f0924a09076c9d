package io.localqueue.dashboard;

import io.localqueue.QueueDiagnostics;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.ExecutionSummary;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.actuate.RecurringActions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The page's overview of the application, built from the Actuator endpoint's report (cached diagnostics, no count of
 * its own) at most once per {@link #maxAge} and shared by every open page, so ten open pages cost the database what
 * one does.
 */
final class Overview {

    private final LocalQueueEndpoint endpoint;
    private final Throughput throughput = new Throughput();
    private final Clock clock;
    private final Duration maxAge;
    private final boolean readOnly;
    private final long refreshMillis;
    private final int actionLimit;
    private @Nullable Report last;

    Overview(LocalQueueEndpoint endpoint, Clock clock, Duration maxAge, boolean readOnly, Duration refresh,
             int actionLimit) {
        this.endpoint = endpoint;
        this.clock = clock;
        this.maxAge = maxAge;
        this.readOnly = readOnly;
        this.refreshMillis = refresh.toMillis();
        this.actionLimit = actionLimit;
    }

    /** The overview, rebuilt when the last one is older than the maximum age. */
    synchronized Report report() {
        Instant now = clock.instant();
        Report cached = last;
        if (cached != null && !cached.generatedAt().plus(maxAge).isBefore(now)) {
            return cached;
        }
        Report built = build(now);
        last = built;
        return built;
    }

    /** Forgets the cached overview, so that the next read shows what an action changed. */
    synchronized void invalidate() {
        last = null;
    }

    private Report build(Instant now) {
        LocalQueueEndpoint.QueuesDescriptor all = endpoint.queues();
        List<QueueRow> queues = new ArrayList<>();
        for (Map.Entry<String, LocalQueueEndpoint.QueueDescriptor> queue : all.queues().entrySet()) {
            LocalQueueEndpoint.QueueDescriptor described = queue.getValue();
            QueueDiagnostics d = described.diagnostics();
            List<ListenerRow> listeners = described.listeners().stream()
                    .map(l -> new ListenerRow(l.id(), l.running(), l.paused(), l.activeJobs())).toList();
            queues.add(new QueueRow(queue.getKey(), d.ready() - d.delayed(), d.delayed(), d.processing(),
                    d.expiredLeases(), d.failed(), d.acked(), d.heldJobs(), d.oldestAvailableAgeSeconds(),
                    throughput.perMinute(queue.getKey(), d.observedAt(), d.acked() + d.failed()),
                    d.pausedAt() != null, d.pausedBy(), d.maxConcurrent(), d.maxConcurrentPerKey(),
                    d.rateLimitPermits(), d.rateLimitPeriodSeconds(), d.maxPendingJobs(), d.nextDueAt(),
                    described.observedAgeSeconds(), listeners));
        }
        BusView bus = null;
        if (all.bus() != null) {
            List<SubscriptionRow> subscriptions = new ArrayList<>();
            for (Map.Entry<String, LocalQueueEndpoint.SubscriptionDescriptor> entry
                    : all.bus().subscriptions().entrySet()) {
                LocalQueueEndpoint.SubscriptionDescriptor s = entry.getValue();
                QueueDiagnostics d = s.diagnostics();
                subscriptions.add(new SubscriptionRow(entry.getKey(), s.queue(), s.routes(), s.consuming(),
                        s.concurrency(), s.activeDeliveries(), d.ready() - d.delayed(), d.delayed(), d.processing(),
                        d.failed(), d.oldestAvailableAgeSeconds(),
                        throughput.perMinute(s.queue(), d.observedAt(), d.acked() + d.failed()),
                        d.pausedAt() != null, s.observedAgeSeconds()));
            }
            bus = new BusView(all.bus().name(), all.bus().running(), subscriptions, all.bus().executions(),
                    all.bus().storedExecutions());
        }
        return new Report(now, readOnly, refreshMillis, actionLimit, queues, bus, all.recurring());
    }

    /**
     * What the overview shows.
     *
     * @param generatedAt when it was built
     * @param readOnly whether actions are refused
     * @param refreshMillis how often an open page asks again
     * @param actionLimit the most jobs one action changes
     * @param queues the application's queues, by name
     * @param bus the event bus, or null when the application has none
     * @param recurring the recurring jobs, or null when the application declares none
     */
    record Report(Instant generatedAt, boolean readOnly, long refreshMillis, int actionLimit, List<QueueRow> queues,
                  @Nullable BusView bus, @Nullable List<RecurringActions.RecurringDescriptor> recurring) {
    }

    /**
     * One queue.
     *
     * @param name its name
     * @param ready due jobs
     * @param delayed jobs not yet due
     * @param leased jobs under a lease
     * @param expiredLeases leases past their end, not yet taken back
     * @param dead dead letters
     * @param acked acknowledged jobs kept
     * @param held due jobs a full concurrency key holds back
     * @param lagSeconds how long the oldest due job has waited, or null when none is due
     * @param throughputPerMinute jobs finished per minute lately, or null until measured
     * @param paused whether it is paused for every process
     * @param pausedBy which process paused it, or null
     * @param maxConcurrent the limit of jobs leased at once, or null
     * @param maxConcurrentPerKey the limit per concurrency key, or null
     * @param rateLimitPermits the rate limit's permits per period, or null
     * @param rateLimitPeriodSeconds the rate limit's period, or null
     * @param maxPendingJobs the pending-job limit, or null
     * @param nextDueAt when the earliest delayed job falls due, or null
     * @param observedAgeSeconds how old the counts are
     * @param listeners this instance's listeners of the queue
     */
    record QueueRow(String name, long ready, long delayed, long leased, long expiredLeases, long dead, long acked,
                    long held, @Nullable Double lagSeconds, @Nullable Double throughputPerMinute, boolean paused,
                    @Nullable String pausedBy, @Nullable Integer maxConcurrent, @Nullable Integer maxConcurrentPerKey,
                    @Nullable Integer rateLimitPermits, @Nullable Double rateLimitPeriodSeconds,
                    @Nullable Long maxPendingJobs, @Nullable Instant nextDueAt, double observedAgeSeconds,
                    List<ListenerRow> listeners) {
    }

    /**
     * One listener container of this instance.
     *
     * @param id its id
     * @param running whether it runs
     * @param paused whether it is paused here
     * @param activeJobs the jobs it holds under a lease now
     */
    record ListenerRow(String id, boolean running, boolean paused, int activeJobs) {
    }

    /**
     * The event bus.
     *
     * @param name its name
     * @param running whether its consumers run here
     * @param subscriptions its subscriptions
     * @param executions the executions running in this instance, with their progress
     * @param storedExecutions every stored execution
     */
    record BusView(String name, boolean running, List<SubscriptionRow> subscriptions,
                   List<ExecutionResult> executions, List<ExecutionSummary> storedExecutions) {
    }

    /**
     * One subscription of the bus.
     *
     * @param name its name
     * @param queue its queue
     * @param routes the event types routed to it
     * @param consuming whether this instance consumes it
     * @param concurrency its consumer's threads
     * @param active deliveries being handled here now
     * @param ready due deliveries
     * @param delayed deliveries not yet due
     * @param leased deliveries under a lease
     * @param dead dead letters
     * @param lagSeconds how long the oldest due delivery has waited, or null
     * @param throughputPerMinute deliveries finished per minute lately, or null until measured
     * @param paused whether it is paused for every process
     * @param observedAgeSeconds how old the counts are
     */
    record SubscriptionRow(String name, String queue, List<String> routes, boolean consuming, int concurrency,
                           int active, long ready, long delayed, long leased, long dead, @Nullable Double lagSeconds,
                           @Nullable Double throughputPerMinute, boolean paused, double observedAgeSeconds) {
    }
}
