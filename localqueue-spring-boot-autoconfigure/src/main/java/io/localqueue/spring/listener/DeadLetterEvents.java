package io.localqueue.spring.listener;

import io.localqueue.FailureReason;
import io.localqueue.WorkerObserver;
import io.localqueue.bus.DeliveryObserver;
import io.localqueue.spring.DeadLetterHandler;
import io.localqueue.spring.JobDeadLetteredEvent;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The observer that publishes a {@link JobDeadLetteredEvent} for every dead letter the application's listeners and
 * event-bus handlers made (their payload undecodable, their lease expired on the last delivery, included), and hands
 * it to every {@link DeadLetterHandler}; a handler that throws is logged and the others still run. It is told on the
 * consumer's report thread ({@code localqueue-report-…}), never on the thread that records settlements, so a slow
 * alert delays only that consumer's later reports.
 *
 * @since 0.1.0
 */
public class DeadLetterEvents implements WorkerObserver, DeliveryObserver {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterEvents.class);

    private final ApplicationEventPublisher publisher;
    private final List<DeadLetterHandler> handlers;
    private final UnaryOperator<String> subscriptionQueue;

    /**
     * Creates the publisher of dead-letter events.
     *
     * @param publisher the application's event publisher
     */
    public DeadLetterEvents(ApplicationEventPublisher publisher) {
        this(publisher, List.of());
    }

    /**
     * Creates the publisher of dead-letter events that also calls {@code handlers}.
     *
     * @param publisher the application's event publisher
     * @param handlers called in order for every dead letter
     * @since 0.1.0
     */
    public DeadLetterEvents(ApplicationEventPublisher publisher, List<DeadLetterHandler> handlers) {
        this(publisher, handlers, subscription -> subscription);
    }

    /**
     * Creates the publisher of dead-letter events of listeners and of an event bus's subscriptions.
     *
     * @param publisher the application's event publisher
     * @param handlers called in order for every dead letter
     * @param subscriptionQueue the queue that holds a subscription's deliveries, by the subscription's name
     * @since 0.1.0
     */
    public DeadLetterEvents(ApplicationEventPublisher publisher, List<DeadLetterHandler> handlers,
                            UnaryOperator<String> subscriptionQueue) {
        this.publisher = publisher;
        this.handlers = List.copyOf(handlers);
        this.subscriptionQueue = subscriptionQueue;
    }

    @Override
    public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                int attempts) {
        tell(new JobDeadLetteredEvent(this, queueName, jobId, reason, lastError, attempts));
    }

    @Override
    public void deliveryDeadLettered(String subscription, long deliveryId, FailureReason reason,
                                     @Nullable String lastError, int attempts) {
        tell(new JobDeadLetteredEvent(this, subscriptionQueue.apply(subscription), deliveryId, reason, lastError,
                attempts, subscription));
    }

    /** An expired lease that made a dead letter is told of by the dead-letter call that follows it. */
    @Override
    public void leaseExpired(String queueOrSubscription, long id, int attempts, boolean deadLettered) {
    }

    private void tell(JobDeadLetteredEvent event) {
        publisher.publishEvent(event);
        for (DeadLetterHandler handler : handlers) {
            try {
                handler.onDeadLetter(event);
            } catch (RuntimeException failure) {
                log.warn("DeadLetterHandler {} failed for dead letter {} of queue '{}'", handler, event.getJobId(),
                        event.getQueue(), failure);
            }
        }
    }

    /** Names what it tells, for the log line of a slow report: the event's listeners and the handlers. */
    @Override
    public String toString() {
        return "JobDeadLetteredEvent listeners" + (handlers.isEmpty() ? "" : " and DeadLetterHandlers "
                + handlers.stream().map(handler -> handler.getClass().getName()).collect(Collectors.joining(", ")));
    }
}
