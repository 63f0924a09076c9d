package io.localqueue.spring.autoconfigure;

import io.localqueue.bus.EventBus;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.PropertyChecks;
import io.localqueue.spring.actuate.LocalQueueHealthIndicator;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code localqueue} health indicator, when Spring Boot's health support is present and
 * {@code management.health.localqueue.enabled} is not false.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocalQueueAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(LocalQueueRegistry.class)
@ConditionalOnEnabledHealthIndicator("localqueue")
public final class LocalQueueHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "localqueueHealthIndicator")
    LocalQueueHealthIndicator localqueueHealthIndicator(ObservedQueues queues, LocalQueueProperties properties,
                                                        ObjectProvider<EventBus> bus) {
        Duration interval = properties.getHealth().getIntegrityCheckInterval();
        return PropertyChecks.apply("localqueue.health.integrity-check-interval", interval,
                () -> new LocalQueueHealthIndicator(queues, interval, Clock.systemUTC(), bus.getIfUnique()));
    }
}
