package io.localqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a job is put beyond its payload: when it becomes due. Immutable; each wither returns a new value, and a due
 * time set by {@link #delay(Duration)} or {@link #runAt(Instant)} replaces the other. A job is never claimed before
 * it is due, and a due time in the past makes it due at once, in its place in line as if put now.
 *
 * @since 0.1.0
 */
public final class EnqueueOptions {

    private static final EnqueueOptions DEFAULTS = new EnqueueOptions(null, null);

    private final @Nullable Duration delay;
    private final @Nullable Instant runAt;

    private EnqueueOptions(@Nullable Duration delay, @Nullable Instant runAt) {
        this.delay = delay;
        this.runAt = runAt;
    }

    /**
     * Returns the options of a plain put: due at once.
     *
     * @return the defaults
     * @since 0.1.0
     */
    public static EnqueueOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Returns these options with the job due {@code delay} after it is put; zero is due at once.
     *
     * @param delay how long after the put, not negative
     * @return the new options
     * @throws InvalidArgumentException when {@code delay} is null or negative
     * @since 0.1.0
     */
    public EnqueueOptions delay(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new InvalidArgumentException("delay", "delay must not be " + (delay == null ? "null" : "negative")
                    + ": " + delay);
        }
        return new EnqueueOptions(delay, null);
    }

    /**
     * Returns these options with the job due at {@code runAt}, on the queue's clock; an instant already past is due
     * at once.
     *
     * @param runAt when the job becomes due, not null
     * @return the new options
     * @throws InvalidArgumentException when {@code runAt} is null
     * @since 0.1.0
     */
    public EnqueueOptions runAt(Instant runAt) {
        if (runAt == null) {
            throw new InvalidArgumentException("runAt", "runAt must not be null");
        }
        return new EnqueueOptions(null, runAt);
    }

    /**
     * Returns the delay these options set, or null when they set none (a {@link #runAt(Instant)} or none at all).
     *
     * @return the delay, or null
     * @since 0.1.0
     */
    public @Nullable Duration delay() {
        return delay;
    }

    /**
     * Returns the instant these options set, or null when they set none (a {@link #delay(Duration)} or none at all).
     *
     * @return the instant, or null
     * @since 0.1.0
     */
    public @Nullable Instant runAt() {
        return runAt;
    }

    /**
     * Returns when the job is due in epoch milliseconds, given the queue's time of the put; 0 means at once.
     *
     * @param nowMillis the queue's time of the put
     * @return the due time, or 0
     */
    long dueAtMillis(long nowMillis) {
        try {
            if (delay != null) {
                return delay.isZero() ? 0 : Math.addExact(nowMillis, delay.toMillis());
            }
            if (runAt != null) {
                long due = runAt.toEpochMilli();
                return due > nowMillis ? due : 0;
            }
            return 0;
        } catch (ArithmeticException tooFar) {
            throw new InvalidArgumentException(delay != null ? "delay" : "runAt",
                    "the due time lies beyond what a queue can store: " + (delay != null ? delay : runAt));
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EnqueueOptions options && Objects.equals(delay, options.delay)
                && Objects.equals(runAt, options.runAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(delay, runAt);
    }

    @Override
    public String toString() {
        return "EnqueueOptions[" + (delay != null ? "delay=" + delay : runAt != null ? "runAt=" + runAt : "due at once")
                + "]";
    }
}
