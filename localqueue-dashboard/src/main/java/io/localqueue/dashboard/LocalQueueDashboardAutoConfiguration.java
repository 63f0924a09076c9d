package io.localqueue.dashboard;

import io.localqueue.bus.EventBus;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.PropertyChecks;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueEndpointAutoConfiguration;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.recurring.RecurringMethods;
import java.time.Duration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serves the dashboard in a servlet web application that has queues, unless
 * {@code localqueue.dashboard.enabled=false}: its routes are one {@link RouterFunction} bean, so the application's
 * security filters see them as they see its own.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = {LocalQueueAutoConfiguration.class, LocalQueueEndpointAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RouterFunction.class)
@ConditionalOnBean(LocalQueueRegistry.class)
@ConditionalOnBooleanProperty(name = DashboardProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(DashboardProperties.class)
@ImportRuntimeHints(DashboardRuntimeHints.class)
public final class LocalQueueDashboardAutoConfiguration {

    /** How old the overview an open page reads may be: the pages share one overview built at most this often. */
    static final Duration OVERVIEW_MAX_AGE = Duration.ofSeconds(1);

    @Bean
    @ConditionalOnMissingBean
    DashboardRedactor localQueueDashboardRedactor(DashboardProperties properties) {
        return PropertyChecks.apply(DashboardProperties.PREFIX + ".redacted-keys", properties.getRedactedKeys(),
                () -> new SecretKeyRedactor(properties.getRedactedKeys()));
    }

    @Bean
    RouterFunction<ServerResponse> localQueueDashboardRoutes(DashboardProperties properties, ObservedQueues observed,
                                                             ObjectProvider<LocalQueueEndpoint> endpoints,
                                                             ObjectProvider<QueueListenerEndpointRegistry> listeners,
                                                             ObjectProvider<EventBus> bus,
                                                             ObjectProvider<RecurringMethods> recurring,
                                                             ObjectProvider<JsonMapper> json,
                                                             DashboardRedactor redactor,
                                                             ApplicationEventPublisher events, BeanFactory beans) {
        DashboardSettings settings = DashboardSettings.of(properties);
        LocalQueueEndpoint endpoint = endpoints.getIfAvailable(() -> new LocalQueueEndpoint(observed,
                listeners.getIfAvailable(), bus.getIfUnique(), recurring.getIfAvailable()));
        LocalQueueRegistry queues = observed.queues();
        Overview overview = new Overview(endpoint, queues.clock(), OVERVIEW_MAX_AGE, settings.readOnly(),
                settings.refresh(), settings.actionLimit());
        JobReader jobs = new JobReader(queues, new PayloadView(json.getIfAvailable(JsonMapper::new), redactor),
                settings.pageSize(), settings.countCap());
        DashboardActions actions = new DashboardActions(endpoint, bus.getIfUnique(), jobs, overview, events,
                queues.clock(), settings.readOnly(), settings.actionLimit());
        return new DashboardRoutes(settings, overview, jobs, actions, bus.getIfUnique(),
                new ActionPermission(beans, settings.path() + DashboardRoutes.ACTION)).routes();
    }
}
