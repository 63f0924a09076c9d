package io.localqueue.spring;

import io.localqueue.RetryPolicy;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.Subscription;
import io.localqueue.bus.SubscriptionConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * How the event bus's subscriptions consume in this application, as {@link QueueSettings} is for queues: each
 * configured subscription's concurrency, prefetch, handler timeout and retry policy (resolved from
 * {@code localqueue.bus.subscriptions.*} when the application starts), and the retry policy a subscription without
 * one of its own takes from its queue's settings. The bus's lifecycle applies them once the handlers are registered,
 * to a subscription that does not consume yet; a value the bus refuses, or a subscription it does not declare, fails
 * the start naming the property.
 *
 * @since 0.1.0
 */
public final class BusSettings {

    /** Where each subscription's properties are. */
    public static final String SUBSCRIPTIONS_PREFIX = "localqueue.bus.subscriptions.";

    private static final BusSettings NONE = new BusSettings(Map.of(), null);

    private final Map<String, Configured> subscriptions;
    private final @Nullable QueueSettings queues;

    private BusSettings(Map<String, Configured> subscriptions, @Nullable QueueSettings queues) {
        this.subscriptions = subscriptions;
        this.queues = queues;
    }

    /**
     * Returns settings that configure nothing: every subscription keeps what its handlers and the bus give it.
     *
     * @return the settings
     */
    public static BusSettings none() {
        return NONE;
    }

    /**
     * Returns a copy whose subscriptions without a retry policy take the one their queue has in {@code queues}: its
     * delivery budget and backoff.
     *
     * @param queues the queues' settings, the bus's defaults applied
     * @return the new settings
     * @throws IllegalArgumentException when {@code queues} is null
     */
    public BusSettings withQueueRetry(QueueSettings queues) {
        if (queues == null) {
            throw new IllegalArgumentException("queues must not be null");
        }
        return new BusSettings(subscriptions, queues);
    }

    /**
     * Returns a copy in which one subscription has settings of its own; a null value leaves that setting as the
     * subscription's handlers and the bus give it.
     *
     * @param name the subscription's name
     * @param concurrency its handlers running at once in this process, or null
     * @param prefetch the deliveries its consumers claim ahead, or null
     * @param handlerTimeout the longest run of one handler, or null
     * @param retry its retry policy, or null for its queue's
     * @return the new settings
     * @throws IllegalArgumentException when the name is blank
     */
    public BusSettings withSubscription(String name, @Nullable Integer concurrency, @Nullable Integer prefetch,
                                        @Nullable Duration handlerTimeout, @Nullable RetryPolicy retry) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        Map<String, Configured> copy = new LinkedHashMap<>(subscriptions);
        copy.put(name, new Configured(concurrency, prefetch, handlerTimeout, retry));
        return new BusSettings(Map.copyOf(copy), queues);
    }

    /**
     * Returns the names of the subscriptions with settings of their own.
     *
     * @return the names, in no particular order
     */
    public Set<String> configuredSubscriptions() {
        return subscriptions.keySet();
    }

    /**
     * Fails when a subscription with settings of its own is not declared by the bus (by its topology or a handler's
     * route), naming its properties.
     *
     * @param bus the bus, its handlers registered
     * @throws InvalidConfigurationPropertyValueException naming the first undeclared subscription's properties
     */
    public void requireDeclared(EventBus bus) {
        for (String name : subscriptions.keySet()) {
            if (!bus.topology().hasSubscription(name)) {
                throw new InvalidConfigurationPropertyValueException(SUBSCRIPTIONS_PREFIX + name, name,
                        "subscription '" + name + "' is not declared by the topology of bus '" + bus.name()
                                + "'; declared: " + bus.topology().subscriptionNames() + " (a subscription whose only "
                                + "handler is on a lazy bean is declared in localqueue.bus.topology)");
            }
        }
    }

    /**
     * Applies a subscription's settings unless it consumes already (its settings frozen), then gives it its queue's
     * retry policy when it has none.
     *
     * @param subscription the subscription
     * @throws InvalidConfigurationPropertyValueException naming the property whose value the bus refuses
     */
    public void applyTo(Subscription subscription) {
        SubscriptionConfig config = subscription.config();
        if (config.frozen()) {
            return;
        }
        Configured configured = subscriptions.get(subscription.name());
        if (configured != null) {
            configured.applyTo(SUBSCRIPTIONS_PREFIX + subscription.name() + ".", config);
        }
        if (queues != null && config.retry() == null) {
            config.retry(queues.retryFor(subscription.queueName()));
        }
    }

    /** One subscription's own settings; null leaves a setting as it is. */
    private record Configured(@Nullable Integer concurrency, @Nullable Integer prefetch,
                              @Nullable Duration handlerTimeout, @Nullable RetryPolicy retry) {

        void applyTo(String prefix, SubscriptionConfig config) {
            if (concurrency != null) {
                PropertyChecks.set(prefix + "concurrency", concurrency, () -> config.concurrency(concurrency));
            }
            if (prefetch != null) {
                PropertyChecks.set(prefix + "prefetch", prefetch, () -> config.prefetch(prefetch));
            }
            if (handlerTimeout != null) {
                PropertyChecks.set(prefix + "handler-timeout", handlerTimeout,
                        () -> config.handlerTimeout(handlerTimeout));
            }
            if (retry != null) {
                config.retry(retry);
            }
        }
    }
}
