package io.localqueue.spring.observation;

import io.localqueue.Job;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.List;
import java.util.Map;

/**
 * The context of one delivery a {@code @QueueListener} handles. On the first delivery ({@code attempts() == 0}) its
 * carrier holds every header stored with the job, so that a tracing bridge makes the producer's span the parent of
 * the handler's; on a redelivery the trace-context headers are withheld (baggage stays), so that the handler's span
 * starts a trace of its own, which a tracing handler links to the producer's span, as the OpenTelemetry messaging
 * conventions ask. A batch listener's batch is one delivery of all its jobs: never a child of any producer, linked
 * to each of them. {@link #getLinkedProducers()} names the producers to link in both cases.
 *
 * @since 0.1.0
 */
public class JobReceiverContext extends ReceiverContext<Map<String, String>> implements LinkedProducers {

    private final Job<?> job;
    private final List<Job<?>> batch;
    private final boolean batchDelivery;
    private final String listenerId;

    /**
     * Creates the context of one delivery of {@code job} to the listener {@code listenerId}.
     *
     * @param job the delivery
     * @param listenerId the listener's id
     * @since 0.1.0
     */
    public JobReceiverContext(Job<?> job, String listenerId) {
        this(List.of(job), listenerId, false);
    }

    /**
     * Creates the context of one batch handed to the batch listener {@code listenerId}; its carrier holds the first
     * job's baggage, never a trace context.
     *
     * @param batch the jobs of the batch, at least one, in the order the listener gets them
     * @param listenerId the listener's id
     * @throws IllegalArgumentException when the batch is empty
     * @since 0.1.0
     */
    public JobReceiverContext(List<? extends Job<?>> batch, String listenerId) {
        this(batch, listenerId, true);
    }

    private JobReceiverContext(List<? extends Job<?>> batch, String listenerId, boolean batchDelivery) {
        super(HeaderCarriers.GETTER);
        if (batch.isEmpty()) {
            throw new IllegalArgumentException("a batch holds at least one job");
        }
        this.batch = List.copyOf(batch);
        this.batchDelivery = batchDelivery;
        this.job = batch.get(0);
        this.listenerId = listenerId;
        setCarrier(HeaderCarriers.received(job.headers(), isRedelivery() || isBatch()));
    }

    /**
     * Tells whether this is a batch listener's batch rather than one job's delivery.
     *
     * @return true for a batch, even of one job
     * @since 0.1.0
     */
    public boolean isBatch() {
        return batchDelivery;
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
     * Returns the jobs of this delivery: the one job, or every job of a batch.
     *
     * @return the jobs, in the order the listener gets them
     * @since 0.1.0
     */
    public List<Job<?>> getJobs() {
        return batch;
    }

    /**
     * Returns the headers of the producers the handler's span links to rather than continues: none on a job's first
     * delivery (its producer is the parent), the job's on a redelivery, every job's for a batch.
     *
     * @return the producers' headers, one map per linked job
     * @since 0.1.0
     */
    @Override
    public List<Map<String, String>> getLinkedProducers() {
        if (isBatch()) {
            return batch.stream().map(Job::headers).toList();
        }
        return isRedelivery() ? List.of(job.headers()) : List.of();
    }
}
