package io.localqueue.spring.observation;

import io.localqueue.Job;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.Map;

/**
 * The context of one delivery a {@code @QueueListener} handles. On the first delivery ({@code attempts() == 0}) its
 * carrier holds every header stored with the job, so that a tracing bridge makes the producer's span the parent of
 * the handler's; on a redelivery the trace-context headers are withheld (baggage stays), so that the handler's span
 * starts a trace of its own, which a tracing handler links to the producer's span through
 * {@link #getProducerHeaders()}, as the OpenTelemetry messaging conventions ask.
 *
 * @since 0.1.0
 */
public class JobReceiverContext extends ReceiverContext<Map<String, String>> {

    private final Job<?> job;
    private final String listenerId;

    /**
     * Creates the context of one delivery of {@code job} to the listener {@code listenerId}.
     *
     * @param job the delivery
     * @param listenerId the listener's id
     * @since 0.1.0
     */
    public JobReceiverContext(Job<?> job, String listenerId) {
        super((carrier, name) -> carrier.get(name));
        this.job = job;
        this.listenerId = listenerId;
        setCarrier(isRedelivery() ? TraceContextHeaders.without(job.headers()) : job.headers());
    }

    /**
     * Returns the delivery.
     *
     * @return the job
     * @since 0.1.0
     */
    public Job<?> getJob() {
        return job;
    }

    /**
     * Returns the queue the job was claimed from.
     *
     * @return the queue name
     * @since 0.1.0
     */
    public String getQueue() {
        return job.queueName();
    }

    /**
     * Returns the id of the listener handling the delivery.
     *
     * @return the listener id
     * @since 0.1.0
     */
    public String getListenerId() {
        return listenerId;
    }

    /**
     * Tells whether deliveries of the job came before this one, so that its span is linked to the producer's rather
     * than its child; a replayed dead letter starts again at its first delivery.
     *
     * @return true from the second delivery on
     * @since 0.1.0
     */
    public boolean isRedelivery() {
        return job.attempts() > 0;
    }

    /**
     * Returns every header stored with the job, the producer's trace context included even on a redelivery.
     *
     * @return the headers, empty for a job put without any
     * @since 0.1.0
     */
    public Map<String, String> getProducerHeaders() {
        return job.headers();
    }
}
