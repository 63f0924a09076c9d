package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.bus.IgnoredEventHandlers;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * With {@code localqueue.bus.enabled=false}: the warning of every {@code @EventHandler} method nothing will call.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "localqueue.bus", name = "enabled", havingValue = "false")
class LocalQueueBusDisabledConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static IgnoredEventHandlers ignoredEventHandlers() {
        return new IgnoredEventHandlers();
    }
}
