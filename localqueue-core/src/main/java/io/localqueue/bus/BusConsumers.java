package io.localqueue.bus;

import io.localqueue.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * This process's side of a bus's subscriptions: the subscription objects and their handlers, and the consumers that
 * run them between a start and a stop, including those an execution starts for itself and stops once no execution
 * needs them. One lock orders registrations, starts and stops.
 */
final class BusConsumers {

    /** How long a stop waits for running handlers unless told otherwise. */
    static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);

    private final BusRuntime runtime;
    private final Dispatcher dispatcher;
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Object lifecycle = new Object();
    private volatile boolean started;
    private boolean managedRunner;
    private int runnerUsers;

    BusConsumers(Dispatcher dispatcher) {
        this.runtime = dispatcher.runtime();
        this.dispatcher = dispatcher;
    }

    /**
     * Returns a subscription the topology declares, the same object on every call.
     *
     * @throws IllegalArgumentException when the topology does not declare it
     */
    Subscription declared(@Nullable String name) {
        if (name == null || !runtime.topology().hasSubscription(name)) {
            throw new IllegalArgumentException("subscription '" + name + "' is not declared by the topology of bus '"
                    + runtime.name() + "'; declared: " + runtime.topology().subscriptionNames());
        }
        return subscriptionObject(name);
    }

    /** Adds a handler for a class and the route from the subscription to the class's type. */
    Subscription handler(Class<?> type, String subscription, EventHandler<?> handler) {
        synchronized (lifecycle) {
            runtime.ensureOpen();
            String typeName = runtime.handledType(type, handler);
            Subscription target = subscriptionObject(subscription);
            if (target.handlers().hasExact(typeName)) {
                throw new IllegalArgumentException("subscription '" + subscription + "' has a handler for '"
                        + typeName + "' already");
            }
            BusTopology next = runtime.topology().withRoute(subscription, typeName);
            target.handlers().put(typeName, handler);
            runtime.topology(next);
            return target;
        }
    }

    /** Adds a handler for a type name the declared subscription routes already, or for every type. */
    Subscription on(String pattern, String subscription, EventHandler<Object> handler) {
        synchronized (lifecycle) {
            runtime.ensureOpen();
            Subscription target = declared(subscription);
            runtime.requireRouted(subscription, pattern);
            target.handlers().put(pattern, handler);
            return target;
        }
    }

    /** Starts a consumer for every subscription with a handler that has none yet; its settings freeze. */
    void start() {
        synchronized (lifecycle) {
            runtime.ensureOpen();
            started = true;
            if (subscriptions.values().stream().anyMatch(subscription -> subscription.handlers().any())) {
                runtime.ensureTables();
            }
            for (String name : runtime.topology().subscriptionNames()) {
                Subscription subscription = subscriptions.get(name);
                if (subscription != null && subscription.handlers().any() && subscription.consumer() == null) {
                    SubscriptionConfig config = subscription.config();
                    config.freeze();
                    RetryPolicy retry = config.retry();
                    subscription.consumeWith(new SubscriptionConsumer(runtime, dispatcher, config,
                            subscription.handlers(), runtime.claimEngine(name, retry)));
                }
            }
        }
    }

    /**
     * Starts consuming unless consuming already, then returns once every consumer had nothing to do for
     * {@code idleNanos}, stopping them.
     *
     * @throws IllegalStateException when already started
     */
    void runUntilIdle(long idleNanos) {
        synchronized (lifecycle) {
            if (started) {
                throw new IllegalStateException("bus '" + runtime.name()
                        + "' consumes already; run(…) starts and stops it");
            }
            start();
        }
        try {
            while (!runtime.isClosed() && !consumers().stream().allMatch(consumer -> consumer.idleFor(idleNanos))) {
                Thread.sleep(10);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops every consumer within one wait, as {@link SubscriptionConsumer#stopAll} does. */
    boolean stop(Duration timeout) {
        synchronized (lifecycle) {
            boolean drained = SubscriptionConsumer.stopAll(consumers(), timeout);
            subscriptions.values().forEach(Subscription::detach);
            started = false;
            return drained;
        }
    }

    /** Stops the consumers within the wait and closes the bus's runtime, unless closed already. */
    void close(Duration timeout) {
        synchronized (lifecycle) {
            if (!runtime.isClosed()) {
                stop(timeout);
                runtime.close();
            }
        }
    }

    boolean isRunning() {
        return started && !runtime.isClosed();
    }

    /** Starts this process's consumers for an execution unless they run already; the last user stops them. */
    void acquireRunner() {
        synchronized (lifecycle) {
            if (!started) {
                if (subscriptions.values().stream().noneMatch(subscription -> subscription.handlers().any())) {
                    return;
                }
                start();
                managedRunner = true;
            }
            if (managedRunner) {
                runnerUsers++;
            }
        }
    }

    /**
     * Stops the consumers an execution started, once no execution uses them: after a completed execution they
     * drain as a stop does, after a failed or timed-out one they are interrupted at once.
     */
    void releaseRunner(boolean drain) {
        synchronized (lifecycle) {
            if (managedRunner && --runnerUsers == 0) {
                managedRunner = false;
                stop(drain ? DEFAULT_DRAIN : Duration.ZERO);
            }
        }
    }

    private List<SubscriptionConsumer> consumers() {
        return subscriptions.values().stream().map(Subscription::consumer).filter(Objects::nonNull).toList();
    }

    private Subscription subscriptionObject(String name) {
        return subscriptions.computeIfAbsent(name, n -> new Subscription(runtime, n));
    }
}
