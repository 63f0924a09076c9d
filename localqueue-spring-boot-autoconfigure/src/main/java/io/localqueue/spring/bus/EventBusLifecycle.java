package io.localqueue.spring.bus;

import io.localqueue.DeliveryPolicy;
import io.localqueue.RetryPolicy;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.Subscription;
import io.localqueue.bus.SubscriptionConfig;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.listener.ShutdownPhase;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;

/**
 * Registers the application's handlers on its {@link EventBus} once every singleton exists, and starts consuming
 * when the context starts: the {@link io.localqueue.spring.EventHandler} methods collected meanwhile (handlers
 * registered in code while beans were created take part too) are registered with
 * {@code localqueue.bus.subscriptions.*} applied over their attributes, so that with
 * {@code localqueue.bus.auto-startup=false} an execution still finds them (and starts them for its call). Stops
 * consuming in the same shutdown phase as the queue listeners, on a thread of its own, ending the executions running
 * here first, waiting {@code localqueue.bus.shutdown-timeout} in all, never longer than that phase allows. A handler
 * found later (on a lazy bean, created on its first use) is registered as it is found: it joins its subscription
 * when that consumes already, and otherwise starts it with its settings.
 *
 * @since 0.1.0
 */
public class EventBusLifecycle implements SmartLifecycle, SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(EventBusLifecycle.class);

    /** The core's names of a retry policy's parameters, and their properties. */
    private static final String[][] RETRY_PARAMETERS = {{"maxAttempts", "max-attempts"}, {"initialDelay",
        "initial-delay"}, {"maxDelay", "max-delay"}, {"multiplier", "multiplier"}, {"delay", "delay"}};

    private final EventBus bus;
    private final LocalQueueProperties.Bus properties;
    private final @Nullable EventHandlerAnnotationBeanPostProcessor handlers;
    private final @Nullable QueueSettings settings;
    private final Object registration = new Object();
    /** Set once the handlers found while the beans were created are registered; later ones come one by one. */
    private boolean registered;
    private volatile boolean running;
    private volatile @Nullable ShutdownPhase shutdownPhase;
    private volatile EventHandlerDecorator decorator = EventHandlerDecorator.NONE;

    /**
     * Creates the lifecycle of a bus.
     *
     * @param bus the bus
     * @param properties {@code localqueue.bus.*}
     * @param handlers the collected {@code @EventHandler} methods, or null for none
     * @param settings the queues' settings, whose retry policy (delivery budget and {@code localqueue.delivery.backoff})
     *                 each subscription without one of its own gets, or null to leave them without
     */
    public EventBusLifecycle(EventBus bus, LocalQueueProperties.Bus properties,
                             @Nullable EventHandlerAnnotationBeanPostProcessor handlers,
                             @Nullable QueueSettings settings) {
        this.bus = bus;
        this.properties = properties;
        this.handlers = handlers;
        this.settings = settings;
    }

    /**
     * Tells the lifecycle how long Spring waits for its shutdown phase ({@code spring.lifecycle.timeout-per-shutdown-phase}
     * in Spring Boot): a stop then waits at most {@link ShutdownPhase#maxWait(Duration)} of it, which is also the wait
     * when {@code localqueue.bus.shutdown-timeout} is unset, and starting warns once when that setting is longer. Null,
     * the default, waits {@code localqueue.bus.shutdown-timeout}, or {@link EventBus#DEFAULT_SHUTDOWN_TIMEOUT}.
     *
     * @param phaseTimeout the phase's timeout, zero or more, or null when unknown
     * @since 0.1.0
     */
    public void setShutdownPhaseTimeout(@Nullable Duration phaseTimeout) {
        this.shutdownPhase = phaseTimeout == null ? null : new ShutdownPhase(phaseTimeout);
    }

    /**
     * Sets what wraps each handler method before it is registered, such as an observation of its deliveries; methods
     * registered before the call keep the decorator they were registered with.
     *
     * @param decorator the decorator; {@link EventHandlerDecorator#of} combines several
     * @since 0.1.0
     */
    public void setHandlerDecorator(EventHandlerDecorator decorator) {
        this.decorator = decorator;
    }

    /** Registers the handlers found while the beans were created, with their subscriptions' settings. */
    @Override
    public void afterSingletonsInstantiated() {
        synchronized (registration) {
            if (registered) {
                return;
            }
            if (handlers != null) {
                handlers.handOver(this::accept);
            }
            applySubscriptionSettings();
            for (String name : bus.topology().subscriptionNames()) {
                applyRetry(name);
            }
            registered = true;
        }
    }

    @Override
    public void start() {
        synchronized (registration) {
            afterSingletonsInstantiated();
            ShutdownPhase phase = shutdownPhase;
            Duration configured = properties.getShutdownTimeout();
            if (phase != null && configured != null) {
                phase.warnIfCut(log, "Event bus '" + bus.name() + "'", "handlers", "localqueue.bus.shutdown-timeout",
                        configured);
            }
            bus.start();
            running = true;
        }
    }

    /** Registers a method found while the beans are created, or one found later with its subscription's settings. */
    private void accept(EventHandlerEndpoint endpoint) {
        synchronized (registration) {
            if (!registered) {
                register(endpoint);
                return;
            }
            String name = endpoint.subscriptionName();
            if (bus.topology().hasSubscription(name) && bus.subscription(name).config().frozen()
                    && endpoint.configuresSubscription()) {
                throw new InvalidHandlerMethodException("@EventHandler", endpoint.id(), "cannot be registered: "
                        + "subscription '" + name + "' consumes already, so its concurrency, handlerTimeout and "
                        + "permanentErrors can no longer change; set them on the handler registered first, or in "
                        + "localqueue.bus.subscriptions." + name);
            }
            register(endpoint);
            LocalQueueProperties.SubscriptionSettings configured = properties.getSubscriptions().get(name);
            if (configured != null && !bus.subscription(name).config().frozen()) {
                apply(name, configured);
            }
            applyRetry(name);
            if (running) {
                bus.start();
                log.info("Event handler {} was registered after the bus started (its bean was created late); "
                        + "subscription '{}' consumes it", endpoint.id(), name);
            }
        }
    }

    @Override
    public void stop() {
        Duration timeout = shutdownTimeout();
        log.info("Stopping event bus '{}': waiting up to {} for running executions and handlers", bus.name(),
                ShutdownPhase.print(timeout));
        if (!bus.stop(timeout)) {
            log.warn("Event bus '{}' interrupted handlers still running after {}; their deliveries are ready again",
                    bus.name(), ShutdownPhase.print(timeout));
        }
        running = false;
    }

    /** Stops on a thread of its own, so that Spring's timeout for the phase holds whatever the handlers do. */
    @Override
    public void stop(Runnable callback) {
        ShutdownPhase.stopInBackground("localqueue-bus-stop", this::stop, callback);
    }

    /** The configured wait cut to fit the shutdown phase, or, unset, all the phase allows. */
    private Duration shutdownTimeout() {
        ShutdownPhase phase = shutdownPhase;
        Duration configured = properties.getShutdownTimeout();
        if (phase == null) {
            return configured != null ? configured : EventBus.DEFAULT_SHUTDOWN_TIMEOUT;
        }
        return configured != null ? phase.fit(configured) : phase.maxWait();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return properties.isAutoStartup();
    }

    @Override
    public int getPhase() {
        return QueueListenerEndpointRegistry.PHASE;
    }

    /**
     * Gives a subscription without a retry policy the one its queue would have as a queue: the delivery budget and
     * the backoff of {@code localqueue.delivery.*} (or of {@code localqueue.queues.<its queue>.delivery.*}).
     */
    private void applyRetry(String name) {
        QueueSettings queues = settings;
        Subscription subscription = bus.subscription(name);
        SubscriptionConfig config = subscription.config();
        if (queues != null && !config.frozen() && config.retry() == null) {
            config.retry(queues.retryFor(subscription.queueName()));
        }
    }

    /** Registers one {@code @EventHandler} method on the bus with its attributes. */
    @SuppressWarnings("unchecked")
    private void register(EventHandlerEndpoint endpoint) {
        Subscription subscription;
        try {
            Class<Object> type = (Class<Object>) endpoint.eventType();
            io.localqueue.bus.EventHandler<Object> handler = decorator.decorate(bus.name(), endpoint.id(), endpoint);
            subscription = endpoint.subscription() == null ? bus.handler(type, handler)
                    : bus.handler(type, endpoint.subscription(), handler);
            SubscriptionConfig config = subscription.config();
            if (endpoint.concurrency() != null) {
                config.concurrency(endpoint.concurrency());
            }
            if (endpoint.handlerTimeout() != null) {
                config.handlerTimeout(endpoint.handlerTimeout());
            }
            if (!endpoint.permanentErrors().isEmpty()) {
                config.permanentErrors(endpoint.permanentErrors().toArray(Class[]::new));
            }
        } catch (IllegalArgumentException | IllegalStateException refused) {
            throw new InvalidHandlerMethodException("@EventHandler", endpoint.id(), "cannot be registered: "
                    + refused.getMessage(), refused);
        }
    }

    /**
     * Applies each configured subscription's settings, except to one that consumed already (a restart); one the bus
     * does not know is a configuration error.
     */
    private void applySubscriptionSettings() {
        for (Map.Entry<String, LocalQueueProperties.SubscriptionSettings> entry
                : properties.getSubscriptions().entrySet()) {
            String prefix = "localqueue.bus.subscriptions." + entry.getKey();
            Subscription subscription;
            try {
                subscription = bus.subscription(entry.getKey());
            } catch (IllegalArgumentException unknown) {
                throw new InvalidConfigurationPropertyValueException(prefix, entry.getKey(), unknown.getMessage()
                        + " (a subscription whose only handler is on a lazy bean is declared in "
                        + "localqueue.bus.topology)");
            }
            if (!subscription.config().frozen()) {
                apply(entry.getKey(), entry.getValue());
            }
        }
    }

    /** Applies one subscription's configured settings, naming the property the bus refuses. */
    private void apply(String name, LocalQueueProperties.SubscriptionSettings settings) {
        String prefix = "localqueue.bus.subscriptions." + name;
        SubscriptionConfig config = bus.subscription(name).config();
        if (settings.getConcurrency() != null) {
            set(prefix + ".concurrency", settings.getConcurrency(), () -> config.concurrency(
                    settings.getConcurrency()));
        }
        if (settings.getPrefetch() != null) {
            set(prefix + ".prefetch", settings.getPrefetch(), () -> config.prefetch(settings.getPrefetch()));
        }
        if (settings.getHandlerTimeout() != null) {
            set(prefix + ".handler-timeout", settings.getHandlerTimeout(), () -> config.handlerTimeout(
                    settings.getHandlerTimeout()));
        }
        LocalQueueProperties.RetrySettings retry = settings.getRetry();
        if (retry.isSet()) {
            try {
                config.retry(policy(name, retry));
            } catch (IllegalArgumentException refused) {
                String field = retryProperty(refused.getMessage());
                throw new InvalidConfigurationPropertyValueException(prefix + ".retry" + field,
                        field.isEmpty() ? describe(retry) : retryValue(retry, field), refused.getMessage());
            }
        }
    }

    /** The policy the retry settings describe, unset values taken from the core's defaults and the queue's budget. */
    private RetryPolicy policy(String subscription, LocalQueueProperties.RetrySettings retry) {
        int maxAttempts = retry.getMaxAttempts() != null ? retry.getMaxAttempts()
                : settings != null ? settings.deliveryFor(bus.subscription(subscription).queueName()).maxAttempts()
                : DeliveryPolicy.defaults().maxAttempts();
        if (retry.getType() == LocalQueueProperties.RetryKind.FIXED) {
            return RetryPolicy.fixed(maxAttempts, retry.getDelay() == null ? Duration.ZERO : retry.getDelay());
        }
        if (retry.getDelay() != null) {
            throw new IllegalArgumentException("delay applies to a fixed policy; give type=fixed, or initial-delay "
                    + "for an exponential one");
        }
        return RetryPolicy.exponential(maxAttempts,
                retry.getInitialDelay() != null ? retry.getInitialDelay() : RetryPolicy.DEFAULT_INITIAL_DELAY,
                retry.getMultiplier() != null ? retry.getMultiplier() : RetryPolicy.DEFAULT_MULTIPLIER,
                retry.getMaxDelay() != null ? retry.getMaxDelay() : RetryPolicy.DEFAULT_MAX_DELAY,
                retry.getJitter() == null || retry.getJitter());
    }

    /** The retry property a refusal of the core names by its parameter ("multiplier must…"), or "" for none. */
    private static String retryProperty(@Nullable String message) {
        String text = message == null ? "" : message;
        for (String[] known : RETRY_PARAMETERS) {
            if (text.startsWith(known[0] + " ") || text.startsWith(known[0] + " (")) {
                return "." + known[1];
            }
        }
        return "";
    }

    private static Object retryValue(LocalQueueProperties.RetrySettings retry, String field) {
        Object value = switch (field) {
            case ".max-attempts" -> retry.getMaxAttempts();
            case ".delay" -> retry.getDelay();
            case ".initial-delay" -> retry.getInitialDelay();
            case ".multiplier" -> retry.getMultiplier();
            case ".max-delay" -> retry.getMaxDelay();
            default -> null;
        };
        return value != null ? value : "its default";
    }

    private static String describe(LocalQueueProperties.RetrySettings retry) {
        return "type=" + retry.getType() + ", max-attempts=" + retry.getMaxAttempts() + ", delay=" + retry.getDelay()
                + ", initial-delay=" + retry.getInitialDelay() + ", multiplier=" + retry.getMultiplier()
                + ", max-delay=" + retry.getMaxDelay() + ", jitter=" + retry.getJitter();
    }

    private static void set(String property, Object value, Runnable setter) {
        try {
            setter.run();
        } catch (IllegalArgumentException | IllegalStateException refused) {
            throw new InvalidConfigurationPropertyValueException(property, value, refused.getMessage());
        }
    }
}
