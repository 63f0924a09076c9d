package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.actuate.LocalQueueRetryEndpoint;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The {@code localqueue} actuator endpoint, when actuator is present and the endpoint is available; its replay
 * operation exists only with {@code localqueue.actuator.retry-enabled=true}.
 */
@AutoConfiguration(after = LocalQueueAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(LocalQueueRegistry.class)
@ConditionalOnAvailableEndpoint(LocalQueueEndpoint.class)
public final class LocalQueueEndpointAutoConfiguration {

    private static final String RETRY_ENABLED = "localqueue.actuator.retry-enabled";

    @Bean
    @ConditionalOnMissingBean(LocalQueueEndpoint.class)
    @ConditionalOnProperty(name = RETRY_ENABLED, havingValue = "false", matchIfMissing = true)
    LocalQueueEndpoint localQueueEndpoint(LocalQueueRegistry queues,
                                          ObjectProvider<QueueListenerEndpointRegistry> listeners) {
        return new LocalQueueEndpoint(queues, listeners.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean(LocalQueueEndpoint.class)
    @ConditionalOnProperty(name = RETRY_ENABLED, havingValue = "true")
    LocalQueueRetryEndpoint localQueueRetryEndpoint(LocalQueueRegistry queues,
                                                    ObjectProvider<QueueListenerEndpointRegistry> listeners) {
        return new LocalQueueRetryEndpoint(queues, listeners.getIfAvailable());
    }
}
