package io.localqueue.spring.autoconfigure;

import static io.localqueue.spring.autoconfigure.PropertyChecks.apply;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.DeliveryObserver;
import io.localqueue.bus.DispatchInterceptor;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.RetryBackoff;
import io.localqueue.spring.bus.CompositeDeliveryObserver;
import io.localqueue.spring.bus.EventBusLifecycle;
import io.localqueue.spring.bus.EventHandlerDecorator;
import io.localqueue.spring.bus.EventHandlerAnnotationBeanPostProcessor;
import java.time.Clock;
import java.time.Duration;
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
                                DurabilityMode durability, ObjectProvider<JsonMapper> applicationMapper,
                                ObjectProvider<Clock> clock, ObjectProvider<DeliveryObserver> observers,
                                ObjectProvider<DispatchInterceptor> interceptors) {
        LocalQueueProperties.Bus bus = properties.getBus();
        EventBus.Builder builder = EventBus.builder(database).delivery(busDelivery(bus, delivery))
                .durability(durability)
                .requireSubscribers(bus.isRequireSubscribers())
                .clock(clock.getIfUnique(Clock::systemUTC))
                .observer(CompositeDeliveryObserver.of(observers.orderedStream().toList()))
                .dispatchInterceptor(DispatchInterceptor.of(interceptors.orderedStream().toList()));
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

    @Bean
    @ConditionalOnMissingBean
    EventBusLifecycle localQueueEventBusLifecycle(EventBus bus, LocalQueueProperties properties,
                                                  ObjectProvider<EventHandlerAnnotationBeanPostProcessor> handlers,
                                                  DeliveryPolicy delivery, ObjectProvider<QueueSettings> queues,
                                                  ObjectProvider<EventHandlerDecorator> decorators,
                                                  Environment environment) {
        LocalQueueProperties.Bus settings = properties.getBus();
        Duration shutdownTimeout = settings.getShutdownTimeout();
        apply("localqueue.bus.shutdown-timeout", shutdownTimeout, () -> {
            if (shutdownTimeout != null && shutdownTimeout.isNegative()) {
                throw new IllegalArgumentException("must not be negative");
            }
            return null;
        });
        QueueSettings base = queues.getIfUnique();
        EventBusLifecycle lifecycle = new EventBusLifecycle(bus, settings, handlers.getIfUnique(),
                base == null ? null : busSettings(settings, delivery, base));
        lifecycle.setShutdownPhaseTimeout(QueueListenerConfiguration.shutdownPhaseTimeout(environment));
        lifecycle.setHandlerDecorator(EventHandlerDecorator.of(decorators.orderedStream().toList()));
        return lifecycle;
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
