package io.localqueue.spring.autoconfigure;

import io.localqueue.bus.EventBus;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.actuate.LocalQueueBusMetrics;
import io.localqueue.spring.actuate.LocalQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for localqueue, when Micrometer is present and a {@link MeterRegistry} exists; those of the
 * event bus when there is one (the auto-configured bus reports to them; an application's own bus does when it is
 * built with them as its {@code observer}).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocalQueueAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, LocalQueueRegistry.class})
public final class LocalQueueMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LocalQueueMetrics localQueueMetrics(ObservedQueues queues) {
        return new LocalQueueMetrics(queues);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(EventBus.class)
    LocalQueueBusMetrics localQueueBusMetrics(ObservedQueues queues, ObjectProvider<EventBus> bus) {
        return new LocalQueueBusMetrics(queues, bus::getObject);
    }
}
