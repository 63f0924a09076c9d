package io.localqueue.spring.actuate;

import io.localqueue.spring.actuate.LocalQueueEndpoint.RetryDescriptor;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code localqueue} endpoint over HTTP: a dead-letter replay (a queue's or a subscription's) answers 200 once
 * the dead letter is back, 404 for a queue or subscription the application does not know or an id that is not one
 * of its dead letters, and 503 when the queue is full; the body is the {@link RetryDescriptor} in every case. The
 * deletion of an execution answers 200, 404 for an execution the bus does not have, 409 for one that is not complete
 * and 400 for an id that is not a UUID, with the {@link ExecutionActions.DeletionDescriptor}.
 *
 * @since 0.1.0
 */
@EndpointWebExtension(endpoint = LocalQueueEndpoint.class)
public class LocalQueueEndpointWebExtension {

    /** The status of a deletion refused because the execution is not complete. */
    private static final int STATUS_CONFLICT = 409;

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
        return withStatus(endpoint.retry(queue, messageId));
    }

    /**
     * Answers the two-segment writes like {@link LocalQueueEndpoint#act(String, String, String, Long)}: for a queue's
     * action, 200 with what happened, 404 for a queue the application does not know or an action that does not
     * exist, 400 for an {@code olderThan} that is not a duration; for a subscription's replay, the statuses of
     * {@link #retry(String, long)}, and 400 without a {@code messageId}.
     *
     * @param target the queue name, or {@value LocalQueueEndpoint#SUBSCRIPTIONS}
     * @param action the action, or the subscription's name
     * @param olderThan for a purge, how long a finished job must have been unchanged; null for every one
     * @param messageId for a subscription: the dead letter's id
     * @return the outcome with its status
     * @since 0.1.0
     */
    @WriteOperation
    public WebEndpointResponse<?> act(@Selector String target, @Selector String action, @Nullable String olderThan,
                                      @Nullable Long messageId) {
        Object outcome;
        try {
            outcome = endpoint.act(target, action, olderThan, messageId);
        } catch (IllegalArgumentException invalid) {
            return badRequest(olderThan, invalid);
        }
        if (outcome instanceof RetryDescriptor replay) {
            return withStatus(replay);
        }
        return outcome == null ? new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND)
                : new WebEndpointResponse<>(outcome, WebEndpointResponse.STATUS_OK);
    }

    /**
     * Answers the two-segment writes sent without a JSON body, as {@code curl -X POST} sends them, which Spring would
     * otherwise refuse for their missing {@code Content-Type}: the actions that take nothing (replaying every dead
     * letter, pausing, resuming) run as {@link #act} runs them; a queue's purge answers 400 rather than delete every
     * finished job, since a duration sent another way than in the body would be lost; a subscription's replay
     * answers 400 for its missing {@code messageId}.
     *
     * @param target the queue name, or {@value LocalQueueEndpoint#SUBSCRIPTIONS}
     * @param action the action, or the subscription's name
     * @return the outcome with its status
     * @since 0.1.0
     */
    @WriteOperation
    public WebEndpointResponse<?> actWithoutBody(@Selector String target, @Selector String action) {
        if (QueueActions.PURGE.equals(action) && !endpoint.isSubscriptions(target)) {
            return purgeWithoutBody("jobs");
        }
        return act(target, action, null, null);
    }

    /**
     * Answers the writes on a whole subscription sent without a JSON body, as {@link #actWithoutBody} does for a
     * queue: replaying every dead letter runs; a purge answers 400 rather than delete every finished delivery.
     *
     * @param target {@value LocalQueueEndpoint#SUBSCRIPTIONS}
     * @param subscription the subscription's name
     * @param action the action
     * @return the outcome with its status
     * @since 0.1.0
     */
    @WriteOperation
    public WebEndpointResponse<?> actOnSubscriptionWithoutBody(@Selector String target, @Selector String subscription,
                                                               @Selector String action) {
        if (QueueActions.PURGE.equals(action)) {
            return purgeWithoutBody("deliveries");
        }
        return actOnSubscription(target, subscription, action, null);
    }

    /** The 400 of a purge sent without its body, whose duration would otherwise be lost. */
    private static WebEndpointResponse<?> purgeWithoutBody(String rows) {
        return new WebEndpointResponse<>(Map.of("error", "a purge takes a JSON body, sent with Content-Type: "
                + "application/json: {\"olderThan\": \"7d\"} deletes the finished " + rows + " unchanged for 7 "
                + "days, {} every finished one"), WebEndpointResponse.STATUS_BAD_REQUEST);
    }

    /**
     * Runs an action on a whole subscription like
     * {@link LocalQueueEndpoint#actOnSubscription(String, String, String, String)}: 200 with what happened, 404 for
     * a subscription the application does not know or an action that does not exist for one, 400 for an
     * {@code olderThan} that is not a duration.
     *
     * @param target {@value LocalQueueEndpoint#SUBSCRIPTIONS}
     * @param subscription the subscription's name
     * @param action the action
     * @param olderThan for a purge, how long a finished delivery must have been unchanged; null for every one
     * @return the outcome with its status
     * @since 0.1.0
     */
    @WriteOperation
    public WebEndpointResponse<?> actOnSubscription(@Selector String target, @Selector String subscription,
                                                    @Selector String action, @Nullable String olderThan) {
        Object outcome;
        try {
            outcome = endpoint.actOnSubscription(target, subscription, action, olderThan);
        } catch (IllegalArgumentException invalid) {
            return badRequest(olderThan, invalid);
        }
        return outcome == null ? new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND)
                : new WebEndpointResponse<>(outcome, WebEndpointResponse.STATUS_OK);
    }

    /**
     * Deletes a complete execution like {@link LocalQueueEndpoint#deleteExecution(String, String)}: 200 once deleted,
     * 404 for an execution the bus does not have (or another path), 409 for one that is not complete, 400 for an id
     * that is not a UUID.
     *
     * @param target {@value LocalQueueEndpoint#EXECUTIONS}
     * @param executionId the execution's id
     * @return the outcome with its status
     * @since 0.1.0
     */
    @DeleteOperation
    public WebEndpointResponse<ExecutionActions.DeletionDescriptor> deleteExecution(@Selector String target,
                                                                                   @Selector String executionId) {
        ExecutionActions.DeletionDescriptor outcome = endpoint.deleteExecution(target, executionId);
        if (outcome == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        return new WebEndpointResponse<>(outcome, switch (outcome.outcome()) {
            case DELETED -> WebEndpointResponse.STATUS_OK;
            case UNKNOWN_EXECUTION -> WebEndpointResponse.STATUS_NOT_FOUND;
            case NOT_COMPLETE -> STATUS_CONFLICT;
            case INVALID_ID -> WebEndpointResponse.STATUS_BAD_REQUEST;
        });
    }

    /** The 400 of a write refused for its arguments: an {@code olderThan} that is not a duration, or another. */
    private static WebEndpointResponse<?> badRequest(@Nullable String olderThan, IllegalArgumentException invalid) {
        String error = olderThan != null ? "olderThan '" + olderThan + "' is not a duration such as 7d or PT12H"
                : invalid.getMessage();
        return new WebEndpointResponse<>(Map.of("error", String.valueOf(error)),
                WebEndpointResponse.STATUS_BAD_REQUEST);
    }

    private static WebEndpointResponse<RetryDescriptor> withStatus(RetryDescriptor outcome) {
        return new WebEndpointResponse<>(outcome, switch (outcome.outcome()) {
            case RETRIED -> WebEndpointResponse.STATUS_OK;
            case UNKNOWN_QUEUE, NOT_A_DEAD_LETTER -> WebEndpointResponse.STATUS_NOT_FOUND;
            case QUEUE_FULL -> WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE;
        });
    }
}
