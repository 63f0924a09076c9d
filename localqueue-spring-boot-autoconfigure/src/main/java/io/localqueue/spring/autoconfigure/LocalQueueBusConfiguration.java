package io.localqueue.spring.autoconfigure;

import static io.localqueue.spring.PropertyChecks.apply;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.InvalidArgumentException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.RetryPolicy;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.DeliveryObserver;
import io.localqueue.bus.DispatchInterceptor;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.BusSettings;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.PropertyChecks;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.RetryBackoff;
import io.localqueue.spring.bus.CompositeDeliveryObserver;
import io.localqueue.spring.bus.EventBusLifecycle;
import io.localqueue.spring.bus.EventHandlerDecorator;
import io.localqueue.spring.bus.EventHandlerAnnotationBeanPostProcessor;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The application's {@link EventBus} on the shared queue database, configured from {@code localqueue.bus.*}, with the
 * application's {@link DispatchInterceptor}s around its dispatches, and its lifecycle, which registers the handler
 * methods through the {@link EventHandlerDecorator}s; each backs off to the application's own, and
 * {@code localqueue.bus.enabled=false} turns both off.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "localqueue.bus", name = "enabled", havingValue = "true", matchIfMissing = true)
class LocalQueueBusConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    EventBus localQueueEventBus(LocalQueueProperties properties, LocalQueueDatabase database, DeliveryPolicy delivery,
                                DurabilityMode durability, ObjectProvider<QueueSettings> settings,
                                ObjectProvider<JsonMapper> applicationMapper,
                                ObjectProvider<Clock> clock, ObjectProvider<DeliveryObserver> observers,
                                ObjectProvider<DispatchInterceptor> interceptors) {
        LocalQueueProperties.Bus bus = properties.getBus();
        EventBus.Builder builder = EventBus.builder(database).delivery(busDelivery(bus, delivery))
                .durability(durability)
                .requireSubscribers(bus.isRequireSubscribers())
                .clock(clock.getIfUnique(Clock::systemUTC))
                .observer(CompositeDeliveryObserver.of(observers.orderedStream().toList()))
                .dispatchInterceptor(DispatchInterceptor.of(interceptors.orderedStream().toList()));
        QueueSettings queues = settings.getIfUnique();
        QueueSettings.Retention retention = queues == null ? QueueSettings.Retention.DEFAULT
                : queues.defaultRetention();
        builder.retention(retention.acked(), retention.failed());
        apply("localqueue.bus.name", bus.getName(), () -> builder.name(bus.getName()));
        apply("localqueue.bus.execution-lease", bus.getExecutionLease(),
                () -> builder.executionLease(bus.getExecutionLease()));
        apply("localqueue.bus.topology", bus.getTopology(), () -> builder.topology(BusTopology.of(bus.getTopology())));
        JsonMapper mapper = LocalQueueDatabaseConfiguration.applicationMapper(properties, applicationMapper);
        if (mapper != null) {
            builder.jsonMapper(mapper);
        }
        return builder.build();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static EventHandlerAnnotationBeanPostProcessor eventHandlerAnnotationBeanPostProcessor() {
        return new EventHandlerAnnotationBeanPostProcessor();
    }

    /**
     * The subscriptions' settings: {@code localqueue.bus.subscriptions.*}, each retry policy resolved here, and for
     * a subscription without one the policy its queue has under the bus's delivery settings.
     */
    @Bean
    @ConditionalOnMissingBean
    BusSettings localQueueBusSettings(EventBus bus, LocalQueueProperties properties, DeliveryPolicy delivery,
                                      ObjectProvider<QueueSettings> queues) {
        LocalQueueProperties.Bus own = properties.getBus();
        QueueSettings base = queues.getIfUnique();
        QueueSettings busQueues = base == null ? null : busSettings(own, delivery, base);
        BusSettings settings = busQueues == null ? BusSettings.none() : BusSettings.none().withQueueRetry(busQueues);
        for (Map.Entry<String, LocalQueueProperties.SubscriptionSettings> entry : own.getSubscriptions().entrySet()) {
            String name = entry.getKey();
            LocalQueueProperties.SubscriptionSettings configured = entry.getValue();
            int budget = busQueues != null ? busQueues.deliveryFor(EventBus.QUEUE_PREFIX + bus.name() + ":" + name)
                    .maxAttempts() : DeliveryPolicy.defaults().maxAttempts();
            LocalQueueProperties.RetrySettings retry = configured.getRetry();
            settings = settings.withSubscription(name, configured.getConcurrency(), configured.getPrefetch(),
                    configured.getHandlerTimeout(), retry.isSet()
                            ? retryPolicy(BusSettings.SUBSCRIPTIONS_PREFIX + name + ".retry", retry, budget) : null);
        }
        return settings;
    }

    @Bean
    @ConditionalOnMissingBean
    EventBusLifecycle localQueueEventBusLifecycle(EventBus bus, BusSettings settings, LocalQueueProperties properties,
                                                  ObjectProvider<EventHandlerAnnotationBeanPostProcessor> handlers,
                                                  ObjectProvider<EventHandlerDecorator> decorators,
                                                  Environment environment) {
        Duration shutdownTimeout = properties.getBus().getShutdownTimeout();
        apply("localqueue.bus.shutdown-timeout", shutdownTimeout, () -> {
            if (shutdownTimeout != null && shutdownTimeout.isNegative()) {
                throw new IllegalArgumentException("must not be negative");
            }
            return null;
        });
        EventBusLifecycle lifecycle = new EventBusLifecycle(bus, settings, handlers.getIfUnique());
        lifecycle.setAutoStartup(properties.getBus().isAutoStartup());
        lifecycle.setShutdownTimeout(shutdownTimeout);
        lifecycle.setShutdownPhaseTimeout(QueueListenerConfiguration.shutdownPhaseTimeout(environment));
        lifecycle.setHandlerDecorator(EventHandlerDecorator.of(decorators.orderedStream().toList()));
        return lifecycle;
    }

    /**
     * The retry policy a subscription's {@code retry.*} describe, unset values taken from the core's defaults and
     * {@code budget}; a refused value names its property.
     */
    private static RetryPolicy retryPolicy(String prefix, LocalQueueProperties.RetrySettings retry, int budget) {
        int maxAttempts = retry.getMaxAttempts() != null ? retry.getMaxAttempts() : budget;
        return PropertyChecks.applyAll(prefix, segment -> switch (segment) {
            case "max-attempts" -> retry.getMaxAttempts();
            case "delay" -> retry.getDelay();
            case "initial-delay" -> retry.getInitialDelay();
            case "multiplier" -> retry.getMultiplier();
            case "max-delay" -> retry.getMaxDelay();
            default -> null;
        }, () -> {
            if (retry.getType() == LocalQueueProperties.RetryKind.FIXED) {
                return RetryPolicy.fixed(maxAttempts, retry.getDelay() == null ? Duration.ZERO : retry.getDelay());
            }
            if (retry.getDelay() != null) {
                throw new InvalidArgumentException("delay", "delay applies to a fixed policy; give type=fixed, or "
                        + "initial-delay for an exponential one");
            }
            return RetryPolicy.exponential(maxAttempts,
                    retry.getInitialDelay() != null ? retry.getInitialDelay() : RetryPolicy.DEFAULT_INITIAL_DELAY,
                    retry.getMultiplier() != null ? retry.getMultiplier() : RetryPolicy.DEFAULT_MULTIPLIER,
                    retry.getMaxDelay() != null ? retry.getMaxDelay() : RetryPolicy.DEFAULT_MAX_DELAY,
                    retry.getJitter() == null || retry.getJitter());
        });
    }

    /** The bus's delivery policy: {@code localqueue.bus.delivery.lease} and {@code .max-retries} over the queues'. */
    private static DeliveryPolicy busDelivery(LocalQueueProperties.Bus bus, DeliveryPolicy base) {
        LocalQueueProperties.DeliveryOverride own = bus.getDelivery();
        DeliveryPolicy leased = own.getLease() == null ? base
                : apply("localqueue.bus.delivery.lease", own.getLease(), () -> base.withLease(own.getLease()));
        return own.getMaxRetries() == null ? leased : apply("localqueue.bus.delivery.max-retries",
                own.getMaxRetries(), () -> leased.withMaxRetries(own.getMaxRetries()));
    }

    /**
     * The settings a subscription without a retry policy of its own retries by: the bus's delivery policy and
     * {@code localqueue.bus.delivery.backoff.*} over the queues' defaults, unless its queue has overrides of its own.
     */
    private static QueueSettings busSettings(LocalQueueProperties.Bus bus, DeliveryPolicy base, QueueSettings queues) {
        LocalQueueProperties.BackoffOverride own = bus.getDelivery().getBackoff();
        RetryBackoff backoff = LocalQueueDatabaseConfiguration.backoff("localqueue.bus.delivery.backoff.",
                queues.defaultBackoff(), own.getInitialDelay(), own.getMultiplier(), own.getMaxDelay(),
                own.getJitter());
        return queues.withDefaults(busDelivery(bus, base), backoff);
    }
}
