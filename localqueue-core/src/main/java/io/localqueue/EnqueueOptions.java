package io.localqueue;

import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.StoredText;
import io.localqueue.internal.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a job is put beyond its payload: when it becomes due, how urgent it is, and the key it shares with related
 * jobs. Immutable; each wither returns a new value and keeps what it does not set, except that a due time set by
 * {@link #delay(Duration)} or {@link #runAt(Instant)} replaces the other. A job is never claimed before it is due,
 * and a due time in the past makes it due at once, in its place in line as if put now.
 *
 * @since 0.1.0
 */
public final class EnqueueOptions {

    /** The most urgent priority a job can have. */
    public static final int HIGHEST_PRIORITY = -1000;

    /**
     * The longest concurrency key, in characters: a key names a customer, tenant or resource, and every job of it
     * stores a copy.
     *
     * @since 0.1.0
     */
    public static final int MAX_CONCURRENCY_KEY_LENGTH = 1_000;

    /** The least urgent priority a job can have. */
    public static final int LOWEST_PRIORITY = 1000;

    private static final EnqueueOptions DEFAULTS = new EnqueueOptions(null, null, 0, null);

    private final @Nullable Duration delay;
    private final @Nullable Instant runAt;
    private final int priority;
    private final @Nullable String concurrencyKey;

    private EnqueueOptions(@Nullable Duration delay, @Nullable Instant runAt, int priority,
                           @Nullable String concurrencyKey) {
        this.delay = delay;
        this.runAt = runAt;
        this.priority = priority;
        this.concurrencyKey = concurrencyKey;
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
        Durations.requireNonNegativeMillis(delay, "delay");
        return new EnqueueOptions(delay, null, priority, concurrencyKey);
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
        return new EnqueueOptions(null, runAt, priority, concurrencyKey);
    }

    /**
     * Returns these options with the job's priority: among due jobs, a smaller number is claimed first, and jobs of
     * one priority go by due time, then in the order they were put; a job not yet due never holds back a due one,
     * whatever their priorities.
     *
     * @param priority from {@link #HIGHEST_PRIORITY} (-1000, first) to {@link #LOWEST_PRIORITY} (1000, last); 0 is
     *                 the default
     * @return the new options
     * @throws InvalidArgumentException naming {@code priority} when it lies outside that range
     * @since 0.1.0
     */
    public EnqueueOptions priority(int priority) {
        if (priority < HIGHEST_PRIORITY || priority > LOWEST_PRIORITY) {
            throw new InvalidArgumentException("priority", "priority must lie between " + HIGHEST_PRIORITY
                    + " (claimed first) and " + LOWEST_PRIORITY + " (claimed last), but was " + priority);
        }
        return new EnqueueOptions(delay, runAt, priority, concurrencyKey);
    }

    /**
     * Returns these options with the key the job shares with related jobs (a customer, a tenant, a resource), stored
     * with it and shown on the job wherever it is read; a queue's per-key limits count the jobs of one key.
     *
     * @param concurrencyKey the key, not blank, at most {@link #MAX_CONCURRENCY_KEY_LENGTH} characters
     * @return the new options
     * @throws InvalidArgumentException naming {@code concurrencyKey} when it is null, blank, too long, or not
     *                                  well-formed text
     * @since 0.1.0
     */
    public EnqueueOptions concurrencyKey(String concurrencyKey) {
        if (concurrencyKey == null || concurrencyKey.isBlank()) {
            throw new InvalidArgumentException("concurrencyKey", "concurrencyKey must not be "
                    + (concurrencyKey == null ? "null" : "blank"));
        }
        if (concurrencyKey.length() > MAX_CONCURRENCY_KEY_LENGTH) {
            throw new InvalidArgumentException("concurrencyKey", "concurrencyKey must be at most "
                    + MAX_CONCURRENCY_KEY_LENGTH + " characters, got " + concurrencyKey.length());
        }
        StoredText.requireWellFormed(concurrencyKey, "concurrencyKey");
        return new EnqueueOptions(delay, runAt, priority, concurrencyKey);
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
     * Returns the priority these options set; 0 unless {@link #priority(int)} set another.
     *
     * @return the priority, -1000 to 1000
     * @since 0.1.0
     */
    public int priority() {
        return priority;
    }

    /**
     * Returns the key these options set, or null when they set none.
     *
     * @return the concurrency key, or null
     * @since 0.1.0
     */
    public @Nullable String concurrencyKey() {
        return concurrencyKey;
    }

    /**
     * Returns the job to store for a put at {@code nowMillis} on the queue's clock.
     *
     * @param payload the serialized data
     * @param jobId the deduplication key, checked already, or null
     * @param headers the headers, checked already
     * @param nowMillis the queue's time of the put
     * @return the job with these options
     */
    NewJob newJob(byte[] payload, @Nullable String jobId, Map<String, String> headers, long nowMillis) {
        return new NewJob(payload, jobId, headers, dueAtMillis(nowMillis), priority, concurrencyKey);
    }

    /**
     * Returns when the job is due in epoch milliseconds, given the queue's time of the put; 0 means at once.
     *
     * @param nowMillis the queue's time of the put
     * @return the due time, or 0
     */
    private long dueAtMillis(long nowMillis) {
        if (delay != null) {
            return delay.isZero() ? 0 : Durations.addToTimestamp(nowMillis, delay.toMillis(), "delay");
        }
        if (runAt != null) {
            long due = Durations.epochMillis(runAt, "runAt");
            return due > nowMillis ? due : 0;
        }
        return 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EnqueueOptions options && Objects.equals(delay, options.delay)
                && Objects.equals(runAt, options.runAt) && priority == options.priority
                && Objects.equals(concurrencyKey, options.concurrencyKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(delay, runAt, priority, concurrencyKey);
    }

    @Override
    public String toString() {
        return "EnqueueOptions[" + (delay != null ? "delay=" + delay : runAt != null ? "runAt=" + runAt : "due at once")
                + ", priority=" + priority + (concurrencyKey != null ? ", concurrencyKey=" + concurrencyKey : "")
                + "]";
    }
}
