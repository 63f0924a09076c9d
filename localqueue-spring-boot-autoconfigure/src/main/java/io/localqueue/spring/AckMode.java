package io.localqueue.spring;

/**
 * How a {@link QueueListener}'s jobs are settled; Spring Kafka's share consumers call these implicit and manual.
 *
 * @since 0.1.0
 */
public enum AckMode {

    /** Returning acknowledges the job; throwing retries it, or makes it a dead letter when the error is permanent. */
    AUTO,

    /**
     * The method takes an {@link io.localqueue.Acknowledgement} and settles its job through it before returning;
     * a method that returns without settling has its job retried as if it had failed, and one that throws before
     * settling is treated as in {@link #AUTO}.
     */
    MANUAL
}
