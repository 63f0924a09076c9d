package io.localqueue.spring.observation;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The context of one observed call of a {@code LocalQueueTemplate} that writes or defers jobs: a
 * tracing bridge writes the caller's trace context (such as {@code traceparent} and {@code baggage}) into its
 * carrier when the observation starts, and those entries become headers of every job of the write.
 *
 * @since 0.1.0
 */
public class JobSenderContext extends SenderContext<Map<String, String>> {

    private final String queue;
    private final int jobCount;

    /**
     * Creates the context of a write of {@code jobCount} jobs to {@code queue}, with an empty carrier.
     *
     * @param queue the queue name
     * @param jobCount how many jobs the write puts, duplicates included
     * @since 0.1.0
     */
    public JobSenderContext(String queue, int jobCount) {
        super(HeaderCarriers.SETTER, Kind.PRODUCER);
        this.queue = queue;
        this.jobCount = jobCount;
        setCarrier(new LinkedHashMap<>());
    }

    /**
     * Returns the queue the jobs go to.
     *
     * @return the queue name
     * @since 0.1.0
     */
    public String getQueue() {
        return queue;
    }

    /**
     * Returns how many jobs the write puts, duplicates of stored job ids included.
     *
     * @return the number of jobs
     * @since 0.1.0
     */
    public int getJobCount() {
        return jobCount;
    }

    /**
     * Returns what the observation's handlers wrote into the carrier so far, empty before it started or without a
     * tracing bridge.
     *
     * @return the headers to store with the jobs, unmodifiable
     * @since 0.1.0
     */
    public Map<String, String> getHeaders() {
        return HeaderCarriers.written(getCarrier());
    }
}
