package io.localqueue.spring.actuate;

import io.localqueue.JobNotFoundException;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueFullException;
import io.localqueue.QueueLimit;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.ExecutionSummary;
import io.localqueue.bus.Subscription;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.recurring.RecurringMethods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code localqueue} actuator endpoint: {@code GET /actuator/localqueue} reports every queue's diagnostics and
 * listeners, and the event bus's subscriptions and executions; {@code GET /actuator/localqueue/{queue}} one
 * queue (404 for a queue the application does not know),
 * {@code GET /actuator/localqueue/{queue}/dead-letters?limit=20&offset=0} a page of its dead letters, and
 * {@code POST /actuator/localqueue/{queue}} with {@code {"messageId": 42}} moves that dead letter back to its queue
 * (over HTTP, {@link LocalQueueEndpointWebExtension} answers 404 for an unknown queue or dead letter). A
 * subscription has the same under {@code /actuator/localqueue/subscriptions/{subscription}}: its report, its
 * {@code dead-letters} page, the replay of one dead letter, {@code retry-dead-letters} and {@code purge}; while the
 * application has an event bus, the segment {@value #SUBSCRIPTIONS} names its subscriptions
 * ({@code /actuator/localqueue/subscriptions} reports the bus), so a queue of that name keeps only its one-segment
 * report there. The bus's report lists the executions the file stores, and
 * {@code DELETE /actuator/localqueue/executions/{executionId}} deletes a complete one, so that a purge of its
 * subscriptions may delete its deliveries. No operation creates a queue. Read-only by default: replays, actions and
 * deletions exist only with {@code management.endpoint.localqueue.access=unrestricted}. The reads report each
 * queue's and subscription's last snapshot ({@link ObservedQueues}), with how many seconds old it is, so that no
 * request waits for a count of its jobs; the dead-letter page lists the dead letters as they are now.
 *
 * @since 0.1.0
 */
@Endpoint(id = "localqueue", defaultAccess = Access.READ_ONLY)
public class LocalQueueEndpoint {

    /** The path segment of the dead-letter listing under a queue. */
    public static final String DEAD_LETTERS = "dead-letters";

    /** The path segment under which the event bus's subscriptions are reported. */
    public static final String SUBSCRIPTIONS = "subscriptions";

    /** The path segment under which the event bus's executions are deleted. */
    public static final String EXECUTIONS = "executions";

    /** The path segment that names the recurring jobs, unless a queue has that name. */
    public static final String RECURRING = "recurring";

    private final LocalQueueRegistry queues;
    private final ObservedQueues observed;
    private final @Nullable QueueListenerEndpointRegistry listeners;
    private final @Nullable EventBus bus;
    private final @Nullable RecurringMethods recurring;

    /**
     * Creates the endpoint of an application without an event bus.
     *
     * @param observed the application's queues, as they are reported
     * @param listeners the listener containers, or null when there are none
     */
    public LocalQueueEndpoint(ObservedQueues observed, @Nullable QueueListenerEndpointRegistry listeners) {
        this(observed, listeners, null);
    }

    /**
     * Creates the endpoint.
     *
     * @param observed the application's queues, as they are reported
     * @param listeners the listener containers, or null when there are none
     * @param bus the application's event bus, or null when it has none
     * @since 0.1.0
     */
    public LocalQueueEndpoint(ObservedQueues observed, @Nullable QueueListenerEndpointRegistry listeners,
                              @Nullable EventBus bus) {
        this(observed, listeners, bus, null);
    }

    /**
     * Creates the endpoint with the application's recurring jobs.
     *
     * @param observed the application's queues, as they are reported
     * @param listeners the listener containers, or null when there are none
     * @param bus the application's event bus, or null when it has none
     * @param recurring the application's {@code @Recurring} methods, or null to leave recurring jobs out
     * @since 0.1.0
     */
    public LocalQueueEndpoint(ObservedQueues observed, @Nullable QueueListenerEndpointRegistry listeners,
                              @Nullable EventBus bus, @Nullable RecurringMethods recurring) {
        this.queues = observed.queues();
        this.observed = observed;
        this.listeners = listeners;
        this.bus = bus;
        this.recurring = recurring;
    }

    /**
     * Reports every queue.
     *
     * @return diagnostics and listeners by queue name, and the event bus when there is one
     */
    @ReadOperation
    public QueuesDescriptor queues() {
        Map<String, QueueDescriptor> all = new LinkedHashMap<>();
        for (String name : queues.queueNames()) {
            all.put(name, describe(name));
        }
        return new QueuesDescriptor(all, bus(), recurring());
    }

    private @Nullable BusDescriptor bus() {
        EventBus events = bus;
        if (events == null) {
            return null;
        }
        Map<String, SubscriptionDescriptor> subscriptions = new LinkedHashMap<>();
        for (String name : events.topology().subscriptionNames()) {
            subscriptions.put(name, describe(events, name));
        }
        return new BusDescriptor(events.name(), events.isRunning(), subscriptions, events.runningExecutions(),
                events.executions());
    }

    private @Nullable List<RecurringActions.RecurringDescriptor> recurring() {
        RecurringMethods methods = recurring;
        return methods == null ? null : RecurringActions.list(methods);
    }

    /**
     * Answers the one-segment read {@code /actuator/localqueue/{queue}}: one queue, or at
     * {@code /actuator/localqueue/subscriptions}, when no queue has that name, the event bus.
     *
     * @param target the queue name, or {@value #SUBSCRIPTIONS}
     * @return a {@link QueueDescriptor}, or the {@link BusDescriptor}; null (404) when the application does not know
     *         the queue (or has no bus)
     * @since 0.1.0
     */
    @ReadOperation
    public @Nullable Object report(@Selector String target) {
        QueueDescriptor queue = queue(target);
        if (queue != null) {
            return queue;
        }
        if (isSubscriptions(target)) {
            return bus();
        }
        return RECURRING.equals(target) ? recurring() : null;
    }

    /**
     * Reports one queue.
     *
     * @param queue the queue name
     * @return its diagnostics and listeners, or null when the application does not know the queue
     */
    public @Nullable QueueDescriptor queue(String queue) {
        return queues.queueNames().contains(queue) ? describe(queue) : null;
    }

    /**
     * Answers the two-segment reads: {@code /actuator/localqueue/{queue}/dead-letters}, a page of a queue's dead
     * letters, and {@code /actuator/localqueue/subscriptions/{subscription}}, one subscription.
     *
     * @param target the queue name, or {@value #SUBSCRIPTIONS}
     * @param view {@value #DEAD_LETTERS} under a queue, the subscription's name under {@value #SUBSCRIPTIONS}
     * @param limit for dead letters: how many at most, 1 to {@value DeadLetterPage#MAX_LIMIT}; null for
     *              {@value DeadLetterPage#DEFAULT_LIMIT}
     * @param offset for dead letters: how many to skip; null for none
     * @return a {@link DeadLetterPage} or a {@link SubscriptionDescriptor}; null (404) for a queue or subscription
     *         the application does not know, or another view
     * @since 0.1.0
     */
    @ReadOperation
    public @Nullable Object view(@Selector String target, @Selector String view, @Nullable Integer limit,
                                 @Nullable Integer offset) {
        if (isSubscriptions(target)) {
            return subscription(view);
        }
        return DEAD_LETTERS.equals(view) ? deadLetters(target, limit, offset) : null;
    }

    /**
     * Lists one page of a queue's dead letters, as {@code /actuator/localqueue/{queue}/dead-letters} does.
     *
     * @param queue the queue name
     * @param limit how many at most, 1 to {@value DeadLetterPage#MAX_LIMIT}; null for
     *              {@value DeadLetterPage#DEFAULT_LIMIT}
     * @param offset how many to skip; null for none
     * @return the page, or null for a queue the application does not know
     * @since 0.1.0
     */
    public @Nullable DeadLetterPage deadLetters(String queue, @Nullable Integer limit, @Nullable Integer offset) {
        if (!queues.queueNames().contains(queue)) {
            return null;
        }
        return DeadLetterPage.read(queues.queue(queue), observed.stats(queue).failed(), limit, offset, Instant.now());
    }

    /**
     * Reports one subscription of the event bus, as {@code /actuator/localqueue/subscriptions/{subscription}} does.
     *
     * @param subscription the subscription's name
     * @return its report, or null when the application has no bus or its topology does not declare the name
     * @since 0.1.0
     */
    public @Nullable SubscriptionDescriptor subscription(String subscription) {
        EventBus events = bus;
        return events != null && events.topology().hasSubscription(subscription) ? describe(events, subscription)
                : null;
    }

    /**
     * Lists one page of a subscription's dead letters, at
     * {@code /actuator/localqueue/subscriptions/{subscription}/dead-letters}.
     *
     * @param target {@value #SUBSCRIPTIONS}
     * @param subscription the subscription's name
     * @param view {@value #DEAD_LETTERS}
     * @param limit how many at most, 1 to {@value DeadLetterPage#MAX_LIMIT}; null for
     *              {@value DeadLetterPage#DEFAULT_LIMIT}
     * @param offset how many to skip; null for none
     * @return the page, or null (404) for a subscription the application does not know or another path
     * @since 0.1.0
     */
    @ReadOperation
    public @Nullable DeadLetterPage subscriptionDeadLetters(@Selector String target, @Selector String subscription,
                                                            @Selector String view, @Nullable Integer limit,
                                                            @Nullable Integer offset) {
        Subscription known = known(target, subscription);
        if (known == null || !DEAD_LETTERS.equals(view)) {
            return null;
        }
        return DeadLetterPage.read(known, observed.stats(known).failed(), limit, offset, Instant.now());
    }

    /**
     * Replays one dead letter with a fresh delivery budget.
     *
     * @param queue the queue name
     * @param messageId the dead letter's id
     * @return what happened; a queue the application does not know (which is left uncreated), an id that is not a
     *         dead letter of this queue, or a full queue is reported in the outcome, not thrown
     */
    @WriteOperation
    public RetryDescriptor retry(@Selector String queue, long messageId) {
        if (!queues.queueNames().contains(queue)) {
            return new RetryDescriptor(queue, messageId, RetryOutcome.UNKNOWN_QUEUE,
                    "the application has no queue '" + queue + "'");
        }
        try {
            queues.queue(queue).retryFailed(messageId);
            return new RetryDescriptor(queue, messageId, RetryOutcome.RETRIED, "moved back to the queue");
        } catch (JobNotFoundException missing) {
            return new RetryDescriptor(queue, messageId, RetryOutcome.NOT_A_DEAD_LETTER, missing.getMessage());
        } catch (QueueFullException full) {
            return new RetryDescriptor(queue, messageId, RetryOutcome.QUEUE_FULL, full.getMessage());
        }
    }

    /**
     * Answers the two-segment writes: an action on a whole queue, at {@code /actuator/localqueue/{queue}/{action}}
     * (one of {@link QueueActions#RETRY_DEAD_LETTERS}, {@link QueueActions#PURGE} with {@code olderThan} such as
     * {@code 7d}, {@link QueueActions#PAUSE} or {@link QueueActions#RESUME} the queue for every process, or
     * {@link QueueActions#PAUSE_HERE} or {@link QueueActions#RESUME_HERE} this instance's listeners), and the replay
     * of one of a subscription's dead letters, at {@code /actuator/localqueue/subscriptions/{subscription}} with
     * {@code {"messageId": 42}}.
     *
     * @param target the queue name, or {@value #SUBSCRIPTIONS}
     * @param action the action, or the subscription's name
     * @param olderThan for a purge, how long a finished job must have been unchanged; null for every one
     * @param messageId for a subscription: the dead letter's id
     * @return a {@link QueueActions.ActionDescriptor}, or for a subscription a {@link RetryDescriptor}; null for a
     *         queue the application does not know (left uncreated) or no such action
     * @throws IllegalArgumentException when {@code olderThan} is not a duration, or a subscription's replay has no
     *                                  {@code messageId}
     */
    @WriteOperation
    public @Nullable Object act(@Selector String target, @Selector String action, @Nullable String olderThan,
                                @Nullable Long messageId) {
        if (isSubscriptions(target)) {
            if (messageId == null) {
                throw new IllegalArgumentException("a subscription's replay needs the dead letter's messageId");
            }
            return retrySubscription(action, messageId);
        }
        if (!queues.queueNames().contains(target)) {
            return null;
        }
        return QueueActions.run(queues.queue(target), action, olderThan, listeners);
    }

    /**
     * Replays one of a subscription's dead letters with a fresh delivery budget; an execution that delivered it is
     * no longer complete.
     *
     * @param subscription the subscription's name
     * @param messageId the dead letter's id
     * @return what happened; an unknown subscription or an id that is not one of its dead letters is reported in
     *         the outcome, not thrown
     * @since 0.1.0
     */
    public RetryDescriptor retrySubscription(String subscription, long messageId) {
        Subscription known = known(SUBSCRIPTIONS, subscription);
        if (known == null) {
            return new RetryDescriptor(subscription, messageId, RetryOutcome.UNKNOWN_QUEUE,
                    "the event bus has no subscription '" + subscription + "'");
        }
        try {
            known.retryFailed(messageId);
            return new RetryDescriptor(subscription, messageId, RetryOutcome.RETRIED,
                    "moved back to the subscription");
        } catch (JobNotFoundException missing) {
            return new RetryDescriptor(subscription, messageId, RetryOutcome.NOT_A_DEAD_LETTER, missing.getMessage());
        }
    }

    /**
     * Runs an action on a recurring job, at {@code /actuator/localqueue/recurring/{id}/{action}}
     * ({@link RecurringActions#ENABLE}, {@link RecurringActions#DISABLE}, {@link RecurringActions#RUN_NOW},
     * {@link RecurringActions#DELETE}), or on a
     * whole subscription, at {@code /actuator/localqueue/subscriptions/{subscription}/{action}}: {@link QueueActions#RETRY_DEAD_LETTERS},
     * {@link QueueActions#PURGE} with {@code olderThan} such as {@code 7d} (which keeps the deliveries of an
     * execution until the execution is deleted), {@link QueueActions#PAUSE} and {@link QueueActions#RESUME} for every
     * process, {@link QueueActions#PAUSE_HERE} and {@link QueueActions#RESUME_HERE} for this instance's consumer.
     *
     * @param target {@value #SUBSCRIPTIONS} or {@value #RECURRING}
     * @param subscription the subscription's name, or the recurring job's id
     * @param action the action
     * @param olderThan for a purge, how long a finished delivery must have been unchanged; null for every one
     * @return what happened, a {@link QueueActions.ActionDescriptor} or a {@link RecurringActions.ActionDescriptor};
     *         null (404) for a subscription the application does not know, a recurring job not stored, or no such
     *         action
     * @throws IllegalArgumentException when {@code olderThan} is not a duration
     * @since 0.1.0
     */
    @WriteOperation
    public @Nullable Object actOnSubscription(@Selector String target, @Selector String subscription,
                                              @Selector String action, @Nullable String olderThan) {
        RecurringMethods methods = recurring;
        if (RECURRING.equals(target) && methods != null) {
            return RecurringActions.run(methods, subscription, action);
        }
        Subscription known = known(target, subscription);
        return known == null ? null : QueueActions.run(known, action, olderThan);
    }

    /**
     * Deletes a complete execution of the event bus, at {@code DELETE /actuator/localqueue/executions/{executionId}},
     * so that a purge of its subscriptions may delete its deliveries; its checkpoint and dead letters stay.
     *
     * @param target {@value #EXECUTIONS}
     * @param executionId the execution's id, as the bus's report lists it under {@code storedExecutions}
     * @return what happened; null (404) for another path, or an application without an event bus
     * @since 0.1.0
     */
    @DeleteOperation
    public ExecutionActions.@Nullable DeletionDescriptor deleteExecution(@Selector String target,
                                                                        @Selector String executionId) {
        EventBus events = bus;
        return events != null && EXECUTIONS.equals(target) ? ExecutionActions.delete(events, executionId) : null;
    }

    /** Whether a two-segment path names a subscription of the bus, not a queue. */
    boolean isSubscriptions(String target) {
        return bus != null && SUBSCRIPTIONS.equals(target);
    }

    private @Nullable Subscription known(String target, String subscription) {
        EventBus events = bus;
        return isSubscriptions(target) && events != null && events.topology().hasSubscription(subscription)
                ? events.subscription(subscription) : null;
    }

    private SubscriptionDescriptor describe(EventBus events, String name) {
        Subscription subscription = events.subscription(name);
        QueueDiagnostics diagnostics = observed.diagnostics(subscription);
        return new SubscriptionDescriptor(diagnostics.queueName(),
                List.copyOf(events.topology().routes().getOrDefault(name, java.util.Set.of())),
                subscription.consuming(), subscription.config().concurrency(), subscription.activeDeliveries(),
                diagnostics, observed.ageSeconds(diagnostics));
    }

    private QueueDescriptor describe(String name) {
        QueueDiagnostics diagnostics = observed.diagnostics(name);
        List<ListenerDescriptor> running = new ArrayList<>();
        if (listeners != null) {
            for (QueueListenerContainer container : listeners.getListenerContainers()) {
                if (container.endpoint().queue().equals(name)) {
                    running.add(new ListenerDescriptor(container.endpoint().id(), container.isRunning(),
                            container.isPaused(), container.activeJobs()));
                }
            }
        }
        Map<String, Long> claimsHeld = new LinkedHashMap<>();
        for (QueueLimit limit : QueueLimit.values()) {
            claimsHeld.put(limit.name().toLowerCase(Locale.ROOT), queues.claimsHeldBy(name, limit));
        }
        return new QueueDescriptor(diagnostics, observed.ageSeconds(diagnostics), running, claimsHeld);
    }

    /**
     * Every queue of the application, and its event bus.
     *
     * @param queues by name
     * @param bus the event bus, or null when the application has none
     * @param recurring the recurring jobs stored with the queues, each with its last and next tick; null when the
     *                  application has no listeners to run them
     *
     * @since 0.1.0
     */
    public record QueuesDescriptor(Map<String, QueueDescriptor> queues, @Nullable BusDescriptor bus,
                                   @Nullable List<RecurringActions.RecurringDescriptor> recurring) {
    }

    /**
     * The application's event bus.
     *
     * @param name the bus's name
     * @param running whether it consumes in this application
     * @param subscriptions every subscription its topology declares, by name
     * @param executions the executions a call in this application runs right now, with their progress
     * @param storedExecutions every execution of the bus the file stores, running or complete, oldest first, without
     *                         their deliveries counted: the ones to delete once complete
     *
     * @since 0.1.0
     */
    public record BusDescriptor(String name, boolean running, Map<String, SubscriptionDescriptor> subscriptions,
                                List<ExecutionResult> executions, List<ExecutionSummary> storedExecutions) {
    }

    /**
     * One subscription of the event bus.
     *
     * @param queue its queue's name
     * @param routes the event types (or {@code *}) it receives
     * @param consuming whether this application consumes it right now
     * @param concurrency how many handlers this application runs for it at most
     * @param activeDeliveries how many deliveries its handlers here hold right now
     * @param diagnostics its queue's counts, ages and file facts, from its last snapshot
     * @param observedAgeSeconds how long before the response that snapshot was taken
     *
     * @since 0.1.0
     */
    public record SubscriptionDescriptor(String queue, List<String> routes, boolean consuming, int concurrency,
                                         int activeDeliveries, QueueDiagnostics diagnostics,
                                         double observedAgeSeconds) {
    }

    /**
     * One queue.
     *
     * @param diagnostics its counts, ages and file facts, from its last snapshot
     * @param observedAgeSeconds how long before the response that snapshot was taken (its {@code observedAt})
     * @param listeners the {@code @QueueListener} containers consuming it
     * @param claimsHeld by limit ({@code max_concurrent}, {@code max_concurrent_per_key}, {@code rate_limit}): the
     *                   claims of this instance that found due jobs and took none because the limit held them back;
     *                   the limits in force and the jobs a full key holds are in {@code diagnostics}
     *
     * @since 0.1.0
     */
    public record QueueDescriptor(QueueDiagnostics diagnostics, double observedAgeSeconds,
                                  List<ListenerDescriptor> listeners, Map<String, Long> claimsHeld) {
    }

    /**
     * One listener container.
     *
     * @param id the listener id
     * @param running whether it is consuming
     * @param paused whether it is paused (it may still be running)
     * @param activeJobs how many jobs it is handling right now
     *
     * @since 0.1.0
     */
    public record ListenerDescriptor(String id, boolean running, boolean paused, int activeJobs) {
    }

    /**
     * The outcome of a replay.
     *
     * @param queue the queue name
     * @param messageId the dead letter's id
     * @param retried whether it went back to the queue
     * @param outcome why it did or did not
     * @param message what happened, in words
     *
     * @since 0.1.0
     */
    public record RetryDescriptor(String queue, long messageId, boolean retried, RetryOutcome outcome,
                                  @Nullable String message) {

        /**
         * Creates the descriptor of an outcome; {@code retried} is true for {@link RetryOutcome#RETRIED} only.
         *
         * @param queue the queue name
         * @param messageId the dead letter's id
         * @param outcome what happened
         * @param message what happened, in words
         */
        public RetryDescriptor(String queue, long messageId, RetryOutcome outcome, @Nullable String message) {
            this(queue, messageId, outcome == RetryOutcome.RETRIED, outcome, message);
        }
    }

    /**
     * What became of a replay; over HTTP each has its status.
     *
     * @since 0.1.0
     */
    public enum RetryOutcome {

        /** The dead letter is back in its queue with a fresh delivery budget (200). */
        RETRIED,

        /** The application has no such queue (none was created) or subscription (404). */
        UNKNOWN_QUEUE,

        /** The queue or subscription holds no dead letter with that id: missing, not failed, or another's (404). */
        NOT_A_DEAD_LETTER,

        /** The queue is at its pending-job limit; the dead letter stays where it was (503). */
        QUEUE_FULL
    }
}
