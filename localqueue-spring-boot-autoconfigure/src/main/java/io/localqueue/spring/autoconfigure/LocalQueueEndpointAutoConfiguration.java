package io.localqueue.spring.autoconfigure;

import io.localqueue.bus.EventBus;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.actuate.LocalQueueEndpointWebExtension;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.recurring.RecurringMethods;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code localqueue} actuator endpoint, when actuator is present and the endpoint is available, and its web
 * extension, which gives the dead-letter replay its HTTP statuses when the endpoint is exposed over HTTP. The replay
 * follows Boot's endpoint access control: read-only unless {@code management.endpoint.localqueue.access=unrestricted}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocalQueueAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(LocalQueueRegistry.class)
@ConditionalOnAvailableEndpoint(LocalQueueEndpoint.class)
public final class LocalQueueEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LocalQueueEndpoint localQueueEndpoint(ObservedQueues queues,
                                          ObjectProvider<QueueListenerEndpointRegistry> listeners,
                                          ObjectProvider<EventBus> bus,
                                          ObjectProvider<RecurringMethods> recurring) {
        return new LocalQueueEndpoint(queues, listeners.getIfAvailable(), bus.getIfUnique(),
                recurring.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LocalQueueEndpoint.class)
    @ConditionalOnAvailableEndpoint(endpoint = LocalQueueEndpoint.class, exposure = EndpointExposure.WEB)
    LocalQueueEndpointWebExtension localQueueEndpointWebExtension(LocalQueueEndpoint endpoint) {
        return new LocalQueueEndpointWebExtension(endpoint);
    }
}
