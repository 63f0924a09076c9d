package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import io.localqueue.RetryPolicy;
import io.localqueue.Worker;
import io.localqueue.internal.consumer.ClaimFeed;
import io.localqueue.internal.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How this process consumes one subscription: handlers running at once, the retry policy, a handler timeout and the
 * exceptions that dead-letter at once. Every setter validates and names the parameter; once the subscription starts
 * consuming the settings are frozen and any change, even to an equal value, throws {@link IllegalStateException}.
 *
 * @since 0.1.0
 */
public final class SubscriptionConfig {

    private final String subscription;
    private int concurrency;
    private int prefetch = Worker.DEFAULT_PREFETCH;
    private @Nullable RetryPolicy retry;
    private @Nullable Duration handlerTimeout;
    private final List<Class<? extends Throwable>> permanentErrors = new ArrayList<>();
    private boolean frozen;

    SubscriptionConfig(String subscription, int concurrency) {
        this.subscription = subscription;
        this.concurrency = concurrency;
    }

    /** The name of the subscription these settings are of. */
    String subscription() {
        return subscription;
    }

    /**
     * Sets how many of this subscription's handlers run at once in this process.
     *
     * @param concurrency at least 1
     * @return this config
     * @throws IllegalArgumentException when under 1
     * @throws IllegalStateException once the subscription consumes
     */
    public synchronized SubscriptionConfig concurrency(int concurrency) {
        requireUnfrozen("concurrency");
        if (concurrency < 1) {
            throw new InvalidArgumentException("concurrency", "concurrency must be at least 1, got " + concurrency);
        }
        this.concurrency = concurrency;
        return this;
    }

    /**
     * Sets how many deliveries this process may claim ahead of the subscription's handlers: beyond one for each idle
     * handler, at most this many wait here, leased to this process and out of reach of other processes. Default
     * {@value Worker#DEFAULT_PREFETCH}, as a {@link Worker}'s.
     *
     * @param prefetch 0 to {@value Worker#MAX_PREFETCH}
     * @return this config
     * @throws IllegalArgumentException when out of that range
     * @throws IllegalStateException once the subscription consumes
     * @since 0.1.0
     */
    public synchronized SubscriptionConfig prefetch(int prefetch) {
        requireUnfrozen("prefetch");
        this.prefetch = ClaimFeed.requirePrefetch(prefetch, "prefetch");
        return this;
    }

    /**
     * Sets the retry policy: its budget is written onto every delivery this process claims and its waits space the
     * retries; without one, the bus's delivery budget applies and retries come at once.
     *
     * @param retry the policy
     * @return this config
     * @throws IllegalArgumentException when null
     * @throws IllegalStateException once the subscription consumes, or when a handler set another policy
     */
    public synchronized SubscriptionConfig retry(RetryPolicy retry) {
        requireUnfrozen("retry");
        if (retry == null) {
            throw new InvalidArgumentException("retry", "retry must not be null");
        }
        this.retry = retry;
        return this;
    }

    /**
     * Sets how long a handler may run: after it, the handler's thread is interrupted and, once the handler
     * returns, the delivery is retried with reason {@code handler_timeout} when its budget is spent.
     *
     * @param timeout at least one millisecond
     * @return this config
     * @throws IllegalArgumentException when shorter
     * @throws IllegalStateException once the subscription consumes
     */
    public synchronized SubscriptionConfig handlerTimeout(Duration timeout) {
        requireUnfrozen("handlerTimeout");
        Durations.requirePositiveMillis(timeout, "handlerTimeout");
        this.handlerTimeout = timeout;
        return this;
    }

    /**
     * Adds exceptions (and their subclasses) that make a delivery a dead letter at once with reason
     * {@code permanent_handler_error}.
     *
     * @param types the exception types
     * @return this config
     * @throws IllegalArgumentException when one is null
     * @throws IllegalStateException once the subscription consumes
     */
    @SafeVarargs
    public final synchronized SubscriptionConfig permanentErrors(Class<? extends Throwable>... types) {
        requireUnfrozen("permanentErrors");
        for (Class<? extends Throwable> type : types) {
            if (type == null) {
                throw new InvalidArgumentException("permanentErrors", "permanentErrors must not hold null");
            }
            permanentErrors.add(type);
        }
        return this;
    }

    /**
     * Returns how many deliveries this process claims ahead of the subscription's handlers at most.
     *
     * @return the prefetch
     * @since 0.1.0
     */
    public synchronized int prefetch() {
        return prefetch;
    }

    /**
     * Returns how many handlers run at once.
     *
     * @return at least 1
     */
    public synchronized int concurrency() {
        return concurrency;
    }

    /**
     * Returns the retry policy.
     *
     * @return the policy, or null for the bus's delivery budget with immediate retries
     */
    public synchronized @Nullable RetryPolicy retry() {
        return retry;
    }

    /**
     * Returns the handler timeout.
     *
     * @return the timeout, or null for none
     */
    public synchronized @Nullable Duration handlerTimeout() {
        return handlerTimeout;
    }

    /**
     * Returns the permanent errors.
     *
     * @return the exception types, in the order added
     */
    public synchronized List<Class<? extends Throwable>> permanentErrors() {
        return List.copyOf(permanentErrors);
    }

    /**
     * Tells whether the settings are frozen because the subscription consumes.
     *
     * @return true once frozen
     */
    public synchronized boolean frozen() {
        return frozen;
    }

    synchronized void freeze() {
        frozen = true;
    }

    private void requireUnfrozen(String setting) {
        if (frozen) {
            throw new IllegalStateException("subscription '" + subscription + "' consumes already; its " + setting
                    + " can no longer change");
        }
    }
}
