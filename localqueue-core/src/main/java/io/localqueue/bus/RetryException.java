package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a handler to have its delivery retried: after {@code after} when given (exactly, without jitter or
 * cap), else after the subscription's retry policy's wait; the delivery budget still applies, so the last delivery
 * becomes a dead letter instead.
 *
 * @since 0.1.0
 */
public class RetryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final @Nullable Duration after;

    /**
     * Retries after the subscription policy's wait.
     *
     * @param reason why, kept as the delivery's last error
     */
    public RetryException(String reason) {
        this(reason, null);
    }

    /**
     * Retries after the given wait.
     *
     * @param reason why, kept as the delivery's last error
     * @param after the wait, zero or more, or null for the policy's
     * @throws IllegalArgumentException when {@code after} is negative
     */
    public RetryException(String reason, @Nullable Duration after) {
        super(reason);
        if (after != null && after.isNegative()) {
            throw new InvalidArgumentException("after", "after must not be negative, got " + after);
        }
        this.after = after;
    }

    /**
     * Returns the wait the handler asked for.
     *
     * @return the wait, or null for the policy's
     */
    public @Nullable Duration after() {
        return after;
    }
}
