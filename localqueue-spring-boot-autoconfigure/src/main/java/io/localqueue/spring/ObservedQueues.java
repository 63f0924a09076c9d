package io.localqueue.spring;

import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.Subscription;
import java.time.Duration;
import java.time.Instant;

/**
 * The application's queues as the health indicator, the gauges and the actuator endpoint read them: each queue's
 * counts and diagnostics from its last snapshot, recounted in the background once it is {@code maxAge} old
 * ({@link SimpleQueue#diagnostics(Duration)}), so that no request waits for a count of a queue's jobs. A reader
 * asking at least every {@code maxAge} sees figures at most twice {@code maxAge} plus one count's duration old.
 *
 * @since 0.1.0
 */
public final class ObservedQueues {

    /** How old reported figures may be unless {@code localqueue.actuator.max-age} says otherwise. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(5);

    private static final Duration ONE_MILLISECOND = Duration.ofMillis(1);

    private final LocalQueueRegistry queues;
    private final Duration maxAge;

    /**
     * Creates the view.
     *
     * @param queues the application's queues
     * @param maxAge how old a queue's figures may be before a read starts a recount; at least one millisecond
     * @throws IllegalArgumentException when {@code maxAge} is null or under one millisecond
     */
    public ObservedQueues(LocalQueueRegistry queues, Duration maxAge) {
        if (maxAge == null || maxAge.compareTo(ONE_MILLISECOND) < 0) {
            throw new IllegalArgumentException("maxAge must be at least 1ms, got " + maxAge);
        }
        this.queues = queues;
        this.maxAge = maxAge;
    }

    /**
     * Returns the application's queues.
     *
     * @return the registry
     */
    public LocalQueueRegistry queues() {
        return queues;
    }

    /**
     * Returns how old a queue's figures may be before a read starts a recount.
     *
     * @return the age
     */
    public Duration maxAge() {
        return maxAge;
    }

    /**
     * Returns a queue's counts from its last snapshot.
     *
     * @param queue the queue name
     * @return the counts
     */
    public QueueStats stats(String queue) {
        return queues.queue(queue).stats(maxAge);
    }

    /**
     * Returns a queue's diagnostics from its last snapshot; {@link QueueDiagnostics#observedAt()} says when it was
     * taken.
     *
     * @param queue the queue name
     * @return the diagnostics
     */
    public QueueDiagnostics diagnostics(String queue) {
        return queues.queue(queue).diagnostics(maxAge);
    }

    /**
     * Returns an event-bus subscription's counts from its last snapshot, recounted as a queue's are.
     *
     * @param subscription the subscription
     * @return the counts
     * @since 0.1.0
     */
    public QueueStats stats(Subscription subscription) {
        return subscription.stats(maxAge);
    }

    /**
     * Returns an event-bus subscription's diagnostics from its last snapshot, recounted as a queue's are.
     *
     * @param subscription the subscription
     * @return the diagnostics of its queue
     * @since 0.1.0
     */
    public QueueDiagnostics diagnostics(Subscription subscription) {
        return subscription.diagnostics(maxAge);
    }

    /**
     * Returns how long ago diagnostics were observed, on the queues' clock.
     *
     * @param diagnostics diagnostics of one of these queues
     * @return seconds, never negative
     */
    public double ageSeconds(QueueDiagnostics diagnostics) {
        Instant now = queues.clock().instant();
        return Math.max(0, Duration.between(diagnostics.observedAt(), now).toMillis()) / 1000.0;
    }
}
