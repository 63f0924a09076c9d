package io.localqueue.spring.actuate;

import io.localqueue.JobNotFoundException;
import io.localqueue.QueueFullException;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code localqueue} endpoint with dead-letter replay, registered only when
 * {@code localqueue.actuator.retry-enabled=true}: {@code POST /actuator/localqueue/{queue}} with
 * {@code {"messageId": 42}} moves that dead letter back to the queue with a fresh delivery budget.
 */
@Endpoint(id = "localqueue")
public class LocalQueueRetryEndpoint extends LocalQueueEndpoint {

    /**
     * Creates the endpoint.
     *
     * @param queues the application's queues
     * @param listeners the listener containers, or null when there are none
     */
    public LocalQueueRetryEndpoint(LocalQueueRegistry queues, @Nullable QueueListenerEndpointRegistry listeners) {
        super(queues, listeners);
    }

    /**
     * Replays one dead letter.
     *
     * @param queue the queue name
     * @param messageId the dead letter's id
     * @return what happened; a missing id, or one that is not a dead letter of this queue, is reported, not thrown
     */
    @WriteOperation
    public RetryDescriptor retry(@Selector String queue, long messageId) {
        try {
            registry().queue(queue).retryFailed(messageId);
            return new RetryDescriptor(queue, messageId, true, "moved back to the queue");
        } catch (JobNotFoundException | QueueFullException refused) {
            return new RetryDescriptor(queue, messageId, false, refused.getMessage());
        }
    }

    /**
     * The outcome of a replay.
     *
     * @param queue the queue name
     * @param messageId the dead letter's id
     * @param retried whether it went back to the queue
     * @param message what happened
     */
    public record RetryDescriptor(String queue, long messageId, boolean retried, @Nullable String message) {
    }
}
