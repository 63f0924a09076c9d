package io.localqueue.test;

import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * What {@link AutoConfigureLocalQueue} adds to a test's context, ahead of localqueue's own auto-configuration: the
 * {@link TestClock} (unless the application has a {@code Clock} bean), the observer that records finished deliveries,
 * the {@link LocalQueueTestSupport} bean and, with {@code spring.test.localqueue.inline=true}, the inline template
 * and listeners that do not start on their own.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = LocalQueueAutoConfiguration.class)
public final class LocalQueueTestAutoConfiguration {

    /** The property that {@link AutoConfigureLocalQueue#inline()} maps to. */
    static final String INLINE = "spring.test.localqueue.inline";

    @Bean
    @ConditionalOnMissingBean(Clock.class)
    TestClock localQueueTestClock() {
        return new TestClock();
    }

    @Bean
    HandledJobs localQueueHandledJobs() {
        return new HandledJobs();
    }

    @Bean
    QueueListeners localQueueTestListeners(ObjectProvider<QueueListenerEndpointRegistry> registry) {
        return new QueueListeners(registry);
    }

    @Bean
    LocalQueueTestSupport localQueueTestSupport(LocalQueueRegistry queues, QueueListeners listeners,
                                                HandledJobs handled) {
        return new LocalQueueTestSupport(queues, listeners, handled);
    }

    @Bean
    @ConditionalOnProperty(name = INLINE, havingValue = "true")
    @ConditionalOnMissingBean
    LocalQueueTemplate localQueueTemplate(LocalQueueRegistry queues, QueueListeners listeners) {
        return new InlineLocalQueueTemplate(queues, listeners);
    }

    @Bean
    @ConditionalOnProperty(name = INLINE, havingValue = "true")
    static BeanPostProcessor localQueueInlineListeners() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof QueueListenerEndpointRegistry registry) {
                    registry.setAutoStartup(false);
                }
                return bean;
            }
        };
    }
}
