package io.localqueue.spring.listener;

import io.localqueue.FailureReason;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.JobDeadLetteredEvent;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The worker observer that publishes a {@link JobDeadLetteredEvent} for every job a listener made a dead letter.
 *
 * @since 0.1.0
 */
public class DeadLetterEvents implements WorkerObserver {

    private final ApplicationEventPublisher publisher;

    /**
     * Creates the publisher of dead-letter events.
     *
     * @param publisher the application's event publisher
     */
    public DeadLetterEvents(ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void jobDeadLettered(String queueName, long jobId, FailureReason reason, @Nullable String lastError,
                                int attempts) {
        publisher.publishEvent(new JobDeadLetteredEvent(this, queueName, jobId, reason, lastError, attempts));
    }
}
