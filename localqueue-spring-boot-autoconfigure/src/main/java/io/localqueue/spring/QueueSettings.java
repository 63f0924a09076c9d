package io.localqueue.spring;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.RetryPolicy;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How the application's queues are opened and filled: the durability every queue commits with, the delivery policy,
 * the producers' wait for room, the listeners' backoff between deliveries and the retention of finished jobs of
 * queues without their own, and each configured queue's overrides. The one
 * place that resolves a queue's settings; each value is validated when it is added, so a bad one fails the
 * application's start.
 *
 * @since 0.1.0
 */
public final class QueueSettings {

    private static final Queue UNSET = new Queue(null, null, null, null, null, Limits.NONE, null);

    private final DeliveryPolicy defaultDelivery;
    private final DurabilityMode durability;
    private final Duration defaultProducerMaxWait;
    private final RetryBackoff defaultBackoff;
    private final Retention defaultRetention;
    private final Map<String, Queue> queues;

    private QueueSettings(DeliveryPolicy defaultDelivery, DurabilityMode durability, Duration defaultProducerMaxWait,
                          RetryBackoff defaultBackoff, Retention defaultRetention, Map<String, Queue> queues) {
        this.defaultDelivery = defaultDelivery;
        this.durability = durability;
        this.defaultProducerMaxWait = defaultProducerMaxWait;
        this.defaultBackoff = defaultBackoff;
        this.defaultRetention = defaultRetention;
        this.queues = queues;
    }

    /**
     * Returns settings without per-queue overrides, whose producers wait {@link LocalQueueTemplate#DEFAULT_MAX_WAIT}
     * for room and whose listeners retry after {@link RetryBackoff#DEFAULT}.
     *
     * @param defaultDelivery the delivery policy of every queue
     * @param durability how every queue commits
     * @return the settings
     */
    public static QueueSettings of(DeliveryPolicy defaultDelivery, DurabilityMode durability) {
        if (defaultDelivery == null) {
            throw new IllegalArgumentException("defaultDelivery must not be null");
        }
        if (durability == null) {
            throw new IllegalArgumentException("durability must not be null");
        }
        return new QueueSettings(defaultDelivery, durability, LocalQueueTemplate.DEFAULT_MAX_WAIT,
                RetryBackoff.DEFAULT, Retention.DEFAULT, Map.of());
    }

    /**
     * Returns a copy in which one queue has its own lease, retry budget or pending-job limit; a null value keeps what
     * the queue had so far, or the default.
     *
     * @param name the queue name
     * @param lease the queue's lease, or null for the default one
     * @param maxRetries the queue's retry budget, or null for the default one
     * @param maxPendingJobs the queue's pending-job limit, or null for none
     * @return the new settings
     * @throws IllegalArgumentException when the override makes an invalid policy or a limit that is not positive
     */
    public QueueSettings withQueue(String name, @Nullable Duration lease, @Nullable Integer maxRetries,
                                   @Nullable Long maxPendingJobs) {
        requireName(name);
        if (maxPendingJobs != null && maxPendingJobs <= 0) {
            throw new IllegalArgumentException("maxPendingJobs of queue '" + name + "' must be positive, got "
                    + maxPendingJobs);
        }
        Queue queue = queues.getOrDefault(name, UNSET);
        DeliveryPolicy delivery = queue.delivery != null ? queue.delivery : defaultDelivery;
        if (lease != null) {
            delivery = delivery.withLease(lease);
        }
        if (maxRetries != null) {
            delivery = delivery.withMaxRetries(maxRetries);
        }
        return withQueue(name, new Queue(delivery, maxPendingJobs != null ? maxPendingJobs : queue.maxPendingJobs,
                queue.producerMaxWait, queue.backoff, queue.retention, queue.limits, queue.concurrencyKey));
    }

    /**
     * Returns a copy in which producers of queues without a wait of their own wait at most {@code maxWait} for room.
     *
     * @param maxWait zero or more; {@code Duration.ZERO} makes one attempt
     * @return the new settings
     * @throws IllegalArgumentException when {@code maxWait} is null or negative
     */
    public QueueSettings withProducerMaxWait(Duration maxWait) {
        return new QueueSettings(defaultDelivery, durability, requireWait(maxWait, "producerMaxWait"),
                defaultBackoff, defaultRetention, queues);
    }

    /**
     * Returns a copy in which listeners of queues without a backoff of their own wait as {@code backoff} says
     * between deliveries.
     *
     * @param backoff the waits
     * @return the new settings
     * @throws IllegalArgumentException when {@code backoff} is null
     */
    public QueueSettings withBackoff(RetryBackoff backoff) {
        if (backoff == null) {
            throw new IllegalArgumentException("backoff must not be null");
        }
        return new QueueSettings(defaultDelivery, durability, defaultProducerMaxWait, backoff, defaultRetention,
                queues);
    }

    /**
     * Returns a copy in which listeners of one queue wait as {@code backoff} says between deliveries.
     *
     * @param name the queue name
     * @param backoff the waits
     * @return the new settings
     * @throws IllegalArgumentException when {@code backoff} is null
     */
    public QueueSettings withBackoff(String name, RetryBackoff backoff) {
        requireName(name);
        if (backoff == null) {
            throw new IllegalArgumentException("backoff of queue '" + name + "' must not be null");
        }
        Queue queue = queues.getOrDefault(name, UNSET);
        return withQueue(name, new Queue(queue.delivery, queue.maxPendingJobs, queue.producerMaxWait, backoff,
                queue.retention, queue.limits, queue.concurrencyKey));
    }

    /**
     * Returns a copy in which queues without a retention of their own keep their finished jobs as {@code retention}
     * says.
     *
     * @param retention the default retention
     * @return the new settings
     * @throws IllegalArgumentException when {@code retention} is null
     * @since 0.1.0
     */
    public QueueSettings withRetention(Retention retention) {
        if (retention == null) {
            throw new IllegalArgumentException("retention must not be null");
        }
        return new QueueSettings(defaultDelivery, durability, defaultProducerMaxWait, defaultBackoff, retention,
                queues);
    }

    /**
     * Returns a copy in which one queue keeps its finished jobs as it says; a null value takes the default one.
     *
     * @param name the queue name
     * @param acked how long its acknowledged jobs are kept, or null for the default
     * @param failed how long its dead letters are kept, or null for the default
     * @return the new settings
     * @throws IllegalArgumentException when a duration is negative
     * @since 0.1.0
     */
    public QueueSettings withRetention(String name, @Nullable Duration acked, @Nullable Duration failed) {
        requireName(name);
        Queue queue = queues.getOrDefault(name, UNSET);
        Retention current = queue.retention != null ? queue.retention : defaultRetention;
        Retention retention;
        try {
            retention = new Retention(acked != null ? acked : current.acked(), failed != null ? failed
                    : current.failed());
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException("retention of queue '" + name + "': " + bad.getMessage(), bad);
        }
        return withQueue(name, new Queue(queue.delivery, queue.maxPendingJobs, queue.producerMaxWait, queue.backoff,
                retention, queue.limits, queue.concurrencyKey));
    }

    /**
     * Returns how long queues without a retention of their own keep their finished jobs, as the event bus's
     * subscriptions do.
     *
     * @return the default retention
     * @since 0.1.0
     */
    public Retention defaultRetention() {
        return defaultRetention;
    }

    /**
     * Returns how long a queue keeps its finished jobs: its own retention, or the default one.
     *
     * @param queue the queue name
     * @return the retention
     * @since 0.1.0
     */
    public Retention retentionFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null || settings.retention == null ? defaultRetention : settings.retention;
    }

    /**
     * Returns the backoff of a queue: its own, or the default one.
     *
     * @param queue the queue name
     * @return the backoff
     */
    public RetryBackoff backoffFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null || settings.backoff == null ? defaultBackoff : settings.backoff;
    }

    /**
     * Returns the retry policy of a queue's listeners: its backoff over its delivery budget.
     *
     * @param queue the queue name
     * @return the policy
     */
    public RetryPolicy retryFor(String queue) {
        return backoffFor(queue).toPolicy(deliveryFor(queue).maxAttempts());
    }

    /**
     * Returns a copy in which producers of one queue wait at most {@code maxWait} for room in it.
     *
     * @param name the queue name
     * @param maxWait zero or more; {@code Duration.ZERO} makes one attempt
     * @return the new settings
     * @throws IllegalArgumentException when {@code maxWait} is null or negative
     */
    public QueueSettings withProducerMaxWait(String name, Duration maxWait) {
        requireName(name);
        Duration checked = requireWait(maxWait, "producerMaxWait of queue '" + name + "'");
        Queue queue = queues.getOrDefault(name, UNSET);
        return withQueue(name, new Queue(queue.delivery, queue.maxPendingJobs, checked, queue.backoff,
                queue.retention, queue.limits, queue.concurrencyKey));
    }

    /**
     * Returns a copy whose queues without a delivery policy or backoff of their own take these instead, as the event
     * bus's subscriptions take {@code localqueue.bus.delivery.*}; the queues' own overrides stay as they are.
     *
     * @param delivery the default delivery policy
     * @param backoff the default backoff
     * @return the new settings
     * @since 0.1.0
     */
    public QueueSettings withDefaults(DeliveryPolicy delivery, RetryBackoff backoff) {
        if (delivery == null || backoff == null) {
            throw new IllegalArgumentException("delivery and backoff must not be null");
        }
        return new QueueSettings(delivery, durability, defaultProducerMaxWait, backoff, defaultRetention, queues);
    }

    /**
     * Returns the backoff of queues without their own.
     *
     * @return the default backoff
     * @since 0.1.0
     */
    public RetryBackoff defaultBackoff() {
        return defaultBackoff;
    }

    /**
     * Returns the delivery policy of a queue: its own overrides on top of the default policy.
     *
     * @param queue the queue name
     * @return the policy
     */
    public DeliveryPolicy deliveryFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null || settings.delivery == null ? defaultDelivery : settings.delivery;
    }

    /**
     * Returns the pending-job limit of a queue.
     *
     * @param queue the queue name
     * @return the limit, or empty when the queue has none
     */
    public OptionalLong maxPendingJobsFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null || settings.maxPendingJobs == null ? OptionalLong.empty()
                : OptionalLong.of(settings.maxPendingJobs);
    }

    /**
     * Returns how long a producer waits for room in a full queue before {@code QueueFullException}.
     *
     * @param queue the queue name
     * @return the queue's own wait, or the default one
     */
    public Duration producerMaxWaitFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null || settings.producerMaxWait == null ? defaultProducerMaxWait
                : settings.producerMaxWait;
    }

    /**
     * Returns how every queue commits.
     *
     * @return the durability mode
     */
    public DurabilityMode durability() {
        return durability;
    }

    /**
     * Returns the names of the queues with settings of their own, in the order they were added.
     *
     * @return the names
     */
    public Set<String> configuredQueues() {
        return queues.keySet();
    }

    /**
     * Returns a copy in which one queue opens with these limits, which it stores as the queue's for every process; a
     * null value leaves what an earlier call set (and, when none did, the stored limit), 0 lifts the stored one.
     *
     * @param name the queue name
     * @param maxConcurrent most jobs of the queue leased at once, or null
     * @param maxConcurrentPerKey most jobs of one concurrency key leased at once, or null
     * @return the new settings
     * @throws IllegalArgumentException when a limit is negative
     * @since 0.1.0
     */
    public QueueSettings withLimits(String name, @Nullable Integer maxConcurrent,
                                    @Nullable Integer maxConcurrentPerKey) {
        requireName(name);
        requireLimit(maxConcurrent, "maxConcurrent of queue '" + name + "'");
        requireLimit(maxConcurrentPerKey, "maxConcurrentPerKey of queue '" + name + "'");
        Queue queue = queues.getOrDefault(name, UNSET);
        Limits limits = new Limits(maxConcurrent != null ? maxConcurrent : queue.limits.maxConcurrent(),
                maxConcurrentPerKey != null ? maxConcurrentPerKey : queue.limits.maxConcurrentPerKey(),
                queue.limits.ratePermits(), queue.limits.ratePeriod());
        return withQueue(name, new Queue(queue.delivery, queue.maxPendingJobs, queue.producerMaxWait, queue.backoff,
                queue.retention, limits, queue.concurrencyKey));
    }

    /**
     * Returns a copy in which one queue opens with this rate limit, which it stores as the queue's for every process.
     *
     * @param name the queue name
     * @param permits how many claims any window of {@code period} holds, or 0 to lift the stored limit
     * @param period the window, whole milliseconds from 1 ms to {@link SimpleQueue#LONGEST_DURATION}; ignored when
     *               lifting
     * @return the new settings
     * @throws IllegalArgumentException when {@code permits} is negative or {@code period} is missing or out of range
     * @since 0.1.0
     */
    public QueueSettings withRateLimit(String name, int permits, @Nullable Duration period) {
        requireName(name);
        requireLimit(permits, "rate limit permits of queue '" + name + "'");
        if (permits > 0 && period == null) {
            throw new IllegalArgumentException("rate limit of queue '" + name + "' has " + permits
                    + " permits but no period to count them over; set the period too");
        }
        if (permits > 0 && (period.compareTo(Duration.ofMillis(1)) < 0
                || period.compareTo(SimpleQueue.LONGEST_DURATION) > 0)) {
            throw new IllegalArgumentException("rate limit period of queue '" + name + "' must be from 1 ms to "
                    + SimpleQueue.LONGEST_DURATION.toDays() + " days, got " + period);
        }
        if (permits > 0 && period.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException("rate limit period of queue '" + name + "' must be a whole number of"
                    + " milliseconds, got " + period);
        }
        Queue queue = queues.getOrDefault(name, UNSET);
        Limits limits = new Limits(queue.limits.maxConcurrent(), queue.limits.maxConcurrentPerKey(), permits,
                permits > 0 ? period : null);
        return withQueue(name, new Queue(queue.delivery, queue.maxPendingJobs, queue.producerMaxWait, queue.backoff,
                queue.retention, limits, queue.concurrencyKey));
    }

    /**
     * Returns a copy in which {@link LocalQueueTemplate} gives the jobs it writes to one queue without a concurrency
     * key the key this expression reads from their payload.
     *
     * @param name the queue name
     * @param expression a SpEL expression evaluated against the payload, such as {@code customerId}
     * @return the new settings
     * @throws IllegalArgumentException when the expression is blank or does not parse
     * @since 0.1.0
     */
    public QueueSettings withConcurrencyKey(String name, String expression) {
        requireName(name);
        ConcurrencyKeys.parse(name, expression);
        Queue queue = queues.getOrDefault(name, UNSET);
        return withQueue(name, new Queue(queue.delivery, queue.maxPendingJobs, queue.producerMaxWait, queue.backoff,
                queue.retention, queue.limits, expression));
    }

    /**
     * Returns the limits a queue opens with.
     *
     * @param queue the queue name
     * @return the limits, {@link Limits#NONE} when it has none of its own
     * @since 0.1.0
     */
    public Limits limitsFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null ? Limits.NONE : settings.limits;
    }

    /**
     * Returns the expression that gives a queue's jobs their concurrency key.
     *
     * @param queue the queue name
     * @return the expression, or null when the queue has none
     * @since 0.1.0
     */
    public @Nullable String concurrencyKeyFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null ? null : settings.concurrencyKey;
    }

    private static void requireLimit(@Nullable Integer limit, String what) {
        if (limit != null && limit < 0) {
            throw new IllegalArgumentException(what + " must be zero or more (0 lifts it), got " + limit);
        }
    }

    private QueueSettings withQueue(String name, Queue queue) {
        Map<String, Queue> copy = new LinkedHashMap<>(queues);
        copy.put(name, queue);
        return new QueueSettings(defaultDelivery, durability, defaultProducerMaxWait, defaultBackoff,
                defaultRetention, Collections.unmodifiableMap(copy));
    }

    private static void requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
    }

    private static Duration requireWait(Duration maxWait, String what) {
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException(what + " must be zero or more, got " + maxWait);
        }
        return maxWait;
    }

    /** A queue's own values; null ones fall back to the defaults. */
    private record Queue(@Nullable DeliveryPolicy delivery, @Nullable Long maxPendingJobs,
                         @Nullable Duration producerMaxWait, @Nullable RetryBackoff backoff,
                         @Nullable Retention retention, Limits limits, @Nullable String concurrencyKey) {
    }

    /**
     * The limits a queue opens with and stores as the queue's; a null value leaves the stored one, 0 lifts it.
     *
     * @param maxConcurrent most jobs of the queue leased at once
     * @param maxConcurrentPerKey most jobs of one concurrency key leased at once
     * @param ratePermits how many claims any window of {@code ratePeriod} holds
     * @param ratePeriod the rate limit's window, set when {@code ratePermits} is positive
     * @since 0.1.0
     */
    public record Limits(@Nullable Integer maxConcurrent, @Nullable Integer maxConcurrentPerKey,
                         @Nullable Integer ratePermits, @Nullable Duration ratePeriod) {

        /** No limit of the queue's own: the stored ones stay as they are. */
        public static final Limits NONE = new Limits(null, null, null, null);
    }

    /**
     * How long a queue keeps its finished jobs before the background retention deletes them.
     *
     * @param acked how long after its acknowledgement a job is kept, zero or more
     * @param failed how long after it failed a dead letter is kept, zero or more; null keeps it until purged
     * @since 0.1.0
     */
    public record Retention(Duration acked, @Nullable Duration failed) {

        /** Acknowledged jobs kept {@link SimpleQueue#DEFAULT_ACKED_RETENTION}, dead letters until purged. */
        public static final Retention DEFAULT = new Retention(SimpleQueue.DEFAULT_ACKED_RETENTION, null);

        /**
         * Checks the durations.
         *
         * @throws IllegalArgumentException when {@code acked} is null, or either is negative or longer than
         *                                  {@link SimpleQueue#LONGEST_DURATION}
         */
        public Retention {
            requireRetention(acked, "acked");
            if (failed != null) {
                requireRetention(failed, "failed");
            }
        }

        private static void requireRetention(@Nullable Duration kept, String what) {
            if (kept == null || kept.isNegative()) {
                throw new IllegalArgumentException(what + " retention must be zero or more, got " + kept);
            }
            if (kept.compareTo(SimpleQueue.LONGEST_DURATION) > 0) {
                throw new IllegalArgumentException(what + " retention must be at most "
                        + SimpleQueue.LONGEST_DURATION.toDays() + " days, got " + kept.toDays() + " days");
            }
        }
    }
}
