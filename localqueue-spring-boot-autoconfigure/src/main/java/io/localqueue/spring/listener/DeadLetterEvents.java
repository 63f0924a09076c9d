package io.localqueue.spring.listener;

import io.localqueue.FailureReason;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.DeadLetterHandler;
import io.localqueue.spring.JobDeadLetteredEvent;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The worker observer that publishes a {@link JobDeadLetteredEvent} for every job a listener made a dead letter,
 * and hands it to every {@link DeadLetterHandler}; a handler that throws is logged and the others still run.
 *
 * @since 0.1.0
 */
public class DeadLetterEvents implements WorkerObserver {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterEvents.class);

    private final ApplicationEventPublisher publisher;
    private final List<DeadLetterHandler> handlers;

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
        this.publisher = publisher;
        this.handlers = List.copyOf(handlers);
    }

    @Override
    public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                int attempts) {
        JobDeadLetteredEvent event = new JobDeadLetteredEvent(this, queueName, jobId, reason, lastError, attempts);
        publisher.publishEvent(event);
        for (DeadLetterHandler handler : handlers) {
            try {
                handler.onDeadLetter(event);
            } catch (RuntimeException failure) {
                log.warn("DeadLetterHandler {} failed for dead letter {} of queue '{}'", handler, jobId, queueName,
                        failure);
            }
        }
    }
}
