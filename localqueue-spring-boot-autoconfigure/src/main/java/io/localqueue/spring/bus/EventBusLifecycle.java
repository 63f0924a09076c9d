package io.localqueue.spring.bus;

import io.localqueue.bus.EventBus;
import io.localqueue.bus.Subscription;
import io.localqueue.bus.SubscriptionConfig;
import io.localqueue.spring.BusSettings;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.listener.ShutdownPhase;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private final EventBus bus;
    private final BusSettings settings;
    private final @Nullable EventHandlerAnnotationBeanPostProcessor handlers;
    private volatile boolean autoStartup = true;
    private volatile @Nullable Duration shutdownTimeout;
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
     * @param settings the subscriptions' settings, applied once the handlers are registered
     * @param handlers the collected {@code @EventHandler} methods, or null for none
     */
    public EventBusLifecycle(EventBus bus, BusSettings settings,
                             @Nullable EventHandlerAnnotationBeanPostProcessor handlers) {
        this.bus = bus;
        this.settings = settings;
        this.handlers = handlers;
    }

    /**
     * Sets whether the bus starts consuming with the context ({@code localqueue.bus.auto-startup}); true by default.
     *
     * @param autoStartup false to leave starting to the application (an execution still starts the handlers it
     *                    needs for its call)
     * @since 0.1.0
     */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    /**
     * Sets how long a stop waits for running executions and handlers ({@code localqueue.bus.shutdown-timeout}); null,
     * the default, waits all the shutdown phase allows, or {@link EventBus#DEFAULT_SHUTDOWN_TIMEOUT} outside one.
     *
     * @param shutdownTimeout zero or more, or null
     * @since 0.1.0
     */
    public void setShutdownTimeout(@Nullable Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
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
            settings.requireDeclared(bus);
            for (String name : bus.topology().subscriptionNames()) {
                settings.applyTo(bus.subscription(name));
            }
            registered = true;
        }
    }

    @Override
    public void start() {
        synchronized (registration) {
            afterSingletonsInstantiated();
            ShutdownPhase phase = shutdownPhase;
            Duration configured = shutdownTimeout;
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
            settings.applyTo(bus.subscription(name));
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
        Duration configured = shutdownTimeout;
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
        return autoStartup;
    }

    @Override
    public int getPhase() {
        return QueueListenerEndpointRegistry.PHASE;
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
}
