package io.localqueue.spring.observation;

import java.util.List;
import java.util.Map;

/**
 * A consumer's observation context whose span may link to the spans of the producers it names rather than continue
 * one of them, as the OpenTelemetry messaging conventions ask of a redelivery and of a batch.
 *
 * @since 0.1.0
 */
public interface LinkedProducers {

    /**
     * Returns the headers stored by each producer whose span the consumer's span links to; empty when the producer's
     * span is its parent instead (a first delivery).
     *
     * @return the producers' headers, one map per link
     * @since 0.1.0
     */
    List<Map<String, String>> getLinkedProducers();
}
