package io.localqueue.dashboard;

import tools.jackson.databind.JsonNode;

/**
 * Decides what the dashboard shows of a job's payload and headers; declare a bean of this type to replace the default
 * {@link SecretKeyRedactor}. A payload that is not JSON arrives as a text node (or, when it is not UTF-8 text, is
 * never shown at all), and whatever this returns is all the page receives.
 *
 * @since 0.1.0
 */
public interface DashboardRedactor {

    /**
     * Returns what the page may show of a payload.
     *
     * @param queue the job's queue (a subscription's: {@code __bus__:<bus>:<subscription>})
     * @param payload the payload as read, a fresh tree the method may change in place
     * @return what to show
     * @since 0.1.0
     */
    JsonNode redactPayload(String queue, JsonNode payload);

    /**
     * Returns what the page may show of one header's value.
     *
     * @param queue the job's queue
     * @param name the header's name
     * @param value its value
     * @return what to show
     * @since 0.1.0
     */
    String redactHeader(String queue, String name, String value);
}
