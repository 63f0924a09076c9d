package io.localqueue.spring.actuate;

import io.localqueue.spring.actuate.LocalQueueEndpoint.RetryDescriptor;
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
}
