package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.actuate.LocalQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for localqueue, when Micrometer is present and a {@link MeterRegistry} exists.
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
}
