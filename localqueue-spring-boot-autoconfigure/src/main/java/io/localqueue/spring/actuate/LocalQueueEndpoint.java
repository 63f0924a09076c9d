package io.localqueue.spring.actuate;

import io.localqueue.JobNotFoundException;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueFullException;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code localqueue} actuator endpoint: {@code GET /actuator/localqueue} reports every queue's diagnostics and
 * listeners, {@code GET /actuator/localqueue/{queue}} one queue (404 for a queue the application does not know),
 * {@code GET /actuator/localqueue/{queue}/dead-letters?limit=20&offset=0} a page of its dead letters, and
 * {@code POST /actuator/localqueue/{queue}} with {@code {"messageId": 42}} moves that dead letter back to its queue
 * (over HTTP, {@link LocalQueueEndpointWebExtension} answers 404 for an unknown queue or dead letter). No operation
 * creates a queue. Read-only by default: the replay exists only with
 * {@code management.endpoint.localqueue.access=unrestricted}. The reads report each queue's last snapshot
 * ({@link ObservedQueues}), with how many seconds old it is, so that no request waits for a count of a queue's
 * jobs; the dead-letter page lists the dead letters as they are now.
 *
 * @since 0.1.0
 */
@Endpoint(id = "localqueue", defaultAccess = Access.READ_ONLY)
public class LocalQueueEndpoint {

    /** The path segment of the dead-letter listing under a queue. */
    public static final String DEAD_LETTERS = "dead-letters";

    private final LocalQueueRegistry queues;
    private final ObservedQueues observed;
    private final @Nullable QueueListenerEndpointRegistry listeners;

    /**
     * Creates the endpoint.
     *
     * @param observed the application's queues, as they are reported
     * @param listeners the listener containers, or null when there are none
     */
    public LocalQueueEndpoint(ObservedQueues observed, @Nullable QueueListenerEndpointRegistry listeners) {
        this.queues = observed.queues();
        this.observed = observed;
        this.listeners = listeners;
    }

    /**
     * Reports every queue.
     *
     * @return diagnostics and listeners by queue name
     */
    @ReadOperation
    public QueuesDescriptor queues() {
        Map<String, QueueDescriptor> all = new LinkedHashMap<>();
        for (String name : queues.queueNames()) {
            all.put(name, describe(name));
        }
        return new QueuesDescriptor(all);
    }

    /**
     * Reports one queue.
     *
     * @param queue the queue name
     * @return its diagnostics and listeners, or null (404) when the application does not know the queue
     */
    @ReadOperation
    public @Nullable QueueDescriptor queue(@Selector String queue) {
        return queues.queueNames().contains(queue) ? describe(queue) : null;
    }

    /**
     * Lists one page of a queue's dead letters, at {@code /actuator/localqueue/{queue}/dead-letters}.
     *
     * @param queue the queue name
     * @param view the view of the queue; only {@value #DEAD_LETTERS} exists
     * @param limit how many at most, 1 to {@value DeadLetterPage#MAX_LIMIT}; null for
     *              {@value DeadLetterPage#DEFAULT_LIMIT}
     * @param offset how many to skip; null for none
     * @return the page, or null (404) for a queue the application does not know or another view
     */
    @ReadOperation
    public @Nullable DeadLetterPage deadLetters(@Selector String queue, @Selector String view,
                                                @Nullable Integer limit, @Nullable Integer offset) {
        if (!DEAD_LETTERS.equals(view) || !queues.queueNames().contains(queue)) {
            return null;
        }
        return DeadLetterPage.read(queues.queue(queue), observed.stats(queue).failed(), limit, offset, Instant.now());
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
     * Runs an action on a whole queue, at {@code /actuator/localqueue/{queue}/{action}}: one of
     * {@link QueueActions#RETRY_DEAD_LETTERS}, {@link QueueActions#PURGE} (with {@code olderThan}, such as
     * {@code 7d}), {@link QueueActions#PAUSE} or {@link QueueActions#RESUME} its listeners.
     *
     * @param queue the queue name
     * @param action the action
     * @param olderThan for a purge, how long a finished job must have been unchanged; null for every one
     * @return what happened, or null for a queue the application does not know (left uncreated) or no such action
     * @throws IllegalArgumentException when {@code olderThan} is not a duration
     */
    @WriteOperation
    public QueueActions.@Nullable ActionDescriptor act(@Selector String queue, @Selector String action,
                                                       @Nullable String olderThan) {
        if (!queues.queueNames().contains(queue)) {
            return null;
        }
        return QueueActions.run(queues.queue(queue), action, olderThan, listeners);
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
        return new QueueDescriptor(diagnostics, observed.ageSeconds(diagnostics), running);
    }

    /**
     * Every queue of the application.
     *
     * @param queues by name
     *
     * @since 0.1.0
     */
    public record QueuesDescriptor(Map<String, QueueDescriptor> queues) {
    }

    /**
     * One queue.
     *
     * @param diagnostics its counts, ages and file facts, from its last snapshot
     * @param observedAgeSeconds how long before the response that snapshot was taken (its {@code observedAt})
     * @param listeners the {@code @QueueListener} containers consuming it
     *
     * @since 0.1.0
     */
    public record QueueDescriptor(QueueDiagnostics diagnostics, double observedAgeSeconds,
                                  List<ListenerDescriptor> listeners) {
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

        /** The application has no such queue, and none was created (404). */
        UNKNOWN_QUEUE,

        /** The queue holds no dead letter with that id: missing, not failed, or another queue's (404). */
        NOT_A_DEAD_LETTER,

        /** The queue is at its pending-job limit; the dead letter stays where it was (503). */
        QUEUE_FULL
    }
}
