package io.localqueue;

import java.time.Duration;

/**
 * Thrown by a handler to have its job delivered again after {@code delay}, whatever the worker's
 * {@link RetryPolicy} would wait; the job's delivery budget still holds, so on its last delivery it becomes a dead
 * letter ({@link FailureReason#RETRIES_EXHAUSTED}) as any failure would.
 *
 * @since 0.1.0
 */
public class RetryLaterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Duration delay;

    /**
     * Asks for the next delivery after {@code delay}.
     *
     * @param delay how long the job waits, zero or more
     * @throws IllegalArgumentException when {@code delay} is null or negative
     */
    public RetryLaterException(Duration delay) {
        this(delay, "retry requested in " + delay);
    }

    /**
     * Asks for the next delivery after {@code delay}, with a message kept as the job's {@code lastError}.
     *
     * @param delay how long the job waits, zero or more
     * @param message why, kept with the job
     * @throws IllegalArgumentException when {@code delay} is null or negative
     */
    public RetryLaterException(Duration delay, String message) {
        super(message);
        if (delay == null || delay.isNegative()) {
            throw new InvalidArgumentException("delay", "delay must not be null or negative, got " + delay);
        }
        this.delay = delay;
    }

    /**
     * Returns how long the job waits before its next delivery.
     *
     * @return the delay
     */
    public Duration delay() {
        return delay;
    }
}
