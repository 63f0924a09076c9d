package io.localqueue.spring.actuate;

import io.localqueue.spring.actuate.LocalQueueEndpoint.RetryDescriptor;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code localqueue} endpoint over HTTP: a dead-letter replay answers 200 once the dead letter is back in its
 * queue, 404 for a queue the application does not know or an id that is not one of its dead letters, and 503 when
 * the queue is full; the body is the {@link RetryDescriptor} in every case.
 *
 * @since 0.1.0
 */
@EndpointWebExtension(endpoint = LocalQueueEndpoint.class)
public class LocalQueueEndpointWebExtension {

    private final LocalQueueEndpoint endpoint;

    /**
     * Creates the extension.
     *
     * @param endpoint the endpoint it answers for
     */
    public LocalQueueEndpointWebExtension(LocalQueueEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Replays one dead letter like {@link LocalQueueEndpoint#retry(String, long)}, with the outcome's HTTP status.
     *
     * @param queue the queue name
     * @param messageId the dead letter's id
     * @return the outcome, with status 200, 404 or 503
     */
    @WriteOperation
    public WebEndpointResponse<RetryDescriptor> retry(@Selector String queue, long messageId) {
        RetryDescriptor outcome = endpoint.retry(queue, messageId);
        return new WebEndpointResponse<>(outcome, switch (outcome.outcome()) {
            case RETRIED -> WebEndpointResponse.STATUS_OK;
            case UNKNOWN_QUEUE, NOT_A_DEAD_LETTER -> WebEndpointResponse.STATUS_NOT_FOUND;
            case QUEUE_FULL -> WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE;
        });
    }

    /**
     * Runs an action on a whole queue like {@link LocalQueueEndpoint#act(String, String, String)}: 200 with what
     * happened, 404 for a queue the application does not know or an action that does not exist, 400 for an
     * {@code olderThan} that is not a duration.
     *
     * @param queue the queue name
     * @param action the action
     * @param olderThan for a purge, how long a finished job must have been unchanged; null for every one
     * @return the outcome with its status
     * @since 0.1.0
     */
    @WriteOperation
    public WebEndpointResponse<?> act(@Selector String queue, @Selector String action, @Nullable String olderThan) {
        try {
            QueueActions.ActionDescriptor outcome = endpoint.act(queue, action, olderThan);
            return outcome == null ? new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND)
                    : new WebEndpointResponse<>(outcome, WebEndpointResponse.STATUS_OK);
        } catch (IllegalArgumentException invalid) {
            return new WebEndpointResponse<>(Map.of("error", "olderThan '" + olderThan
                    + "' is not a duration such as 7d or PT12H"), WebEndpointResponse.STATUS_BAD_REQUEST);
        }
    }
}
