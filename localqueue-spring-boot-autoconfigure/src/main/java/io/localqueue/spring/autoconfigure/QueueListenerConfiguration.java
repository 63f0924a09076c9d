package io.localqueue.spring.autoconfigure;

import io.localqueue.FailureReason;
import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.WorkerObserver;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.DeadLetterHandler;
import io.localqueue.spring.ListenerErrorHandler;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.listener.CompositeWorkerObserver;
import io.localqueue.spring.listener.DeadLetterEvents;
import io.localqueue.spring.listener.DefaultQueueListenerContainerFactory;
import io.localqueue.spring.listener.JobHandlerDecorator;
import io.localqueue.spring.listener.QueueListenerAnnotationBeanPostProcessor;
import io.localqueue.spring.listener.QueueListenerContainerFactory;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.listener.ShutdownPhase;
import io.localqueue.spring.recurring.RecurringAnnotationBeanPostProcessor;
import io.localqueue.spring.recurring.RecurringMethods;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.autoconfigure.context.LifecycleProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

@Configuration(proxyBeanMethods = false)
class QueueListenerConfiguration {

    /** The name of the container factory that {@code @QueueListener} methods use unless they name another. */
    static final String DEFAULT_FACTORY = "localQueueListenerContainerFactory";

    private static final String CONFIGURER = "queueListenerContainerFactoryConfigurer";

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static QueueListenerAnnotationBeanPostProcessor queueListenerAnnotationBeanPostProcessor() {
        return new QueueListenerAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterEvents localQueueDeadLetterEvents(ApplicationEventPublisher publisher,
                                                ObjectProvider<DeadLetterHandler> handlers,
                                                ObjectProvider<EventBus> bus) {
        return new DeadLetterEvents(publisher, handlers.orderedStream().toList(),
                subscription -> bus.getObject().subscription(subscription).queueName());
    }

    @Bean(name = CONFIGURER)
    @ConditionalOnMissingBean
    @ConditionalOnThreading(Threading.PLATFORM)
    QueueListenerContainerFactoryConfigurer queueListenerContainerFactoryConfigurer(
            LocalQueueProperties properties, ObjectProvider<WorkerObserver> observers,
            ObjectProvider<ListenerErrorHandler> errorHandler, ObjectProvider<JobHandlerDecorator> decorators,
            Environment environment) {
        return new QueueListenerContainerFactoryConfigurer(properties.getListener(), composite(observers), null,
                defaultShutdownTimeout(environment), errorHandler.getIfUnique(),
                JobHandlerDecorator.of(decorators.orderedStream().toList()));
    }

    @Bean(name = CONFIGURER)
    @ConditionalOnMissingBean
    @ConditionalOnThreading(Threading.VIRTUAL)
    QueueListenerContainerFactoryConfigurer queueListenerContainerFactoryConfigurerVirtualThreads(
            LocalQueueProperties properties, ObjectProvider<WorkerObserver> observers,
            ObjectProvider<ListenerErrorHandler> errorHandler, ObjectProvider<JobHandlerDecorator> decorators,
            Environment environment) {
        SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("localqueue-listener-");
        executor.setVirtualThreads(true);
        return new QueueListenerContainerFactoryConfigurer(properties.getListener(), composite(observers), executor,
                defaultShutdownTimeout(environment), errorHandler.getIfUnique(),
                JobHandlerDecorator.of(decorators.orderedStream().toList()));
    }

    @Bean(name = DEFAULT_FACTORY)
    @ConditionalOnMissingBean(name = DEFAULT_FACTORY)
    QueueListenerContainerFactory localQueueListenerContainerFactory(LocalQueueRegistry queues,
                                                                     QueueListenerContainerFactoryConfigurer configurer) {
        DefaultQueueListenerContainerFactory factory = new DefaultQueueListenerContainerFactory(queues);
        configurer.configure(factory);
        return factory;
    }

    @Bean
    @ConditionalOnMissingBean
    QueueListenerEndpointRegistry queueListenerEndpointRegistry(QueueListenerAnnotationBeanPostProcessor collector,
                                                                BeanFactory beanFactory, Environment environment) {
        QueueListenerContainerFactory defaultFactory = beanFactory.getBean(DEFAULT_FACTORY,
                QueueListenerContainerFactory.class);
        QueueListenerEndpointRegistry registry = new QueueListenerEndpointRegistry(collector, beanFactory,
                defaultFactory);
        registry.setShutdownPhaseTimeout(shutdownPhaseTimeout(environment));
        return registry;
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static RecurringAnnotationBeanPostProcessor recurringAnnotationBeanPostProcessor() {
        return new RecurringAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    RecurringMethods localQueueRecurringMethods(RecurringAnnotationBeanPostProcessor collector,
                                                LocalQueueRegistry queues, QueueListenerEndpointRegistry listeners,
                                                LocalQueueProperties properties) {
        return new RecurringMethods(collector, queues, listeners, properties.getRecurring());
    }

    /**
     * How long Spring waits for each shutdown phase, the listeners' and the event bus's included: Boot's property, or
     * its default.
     */
    static Duration shutdownPhaseTimeout(Environment environment) {
        return Binder.get(environment).bind(ShutdownPhase.PROPERTY, Duration.class)
                .orElseGet(() -> new LifecycleProperties().getTimeoutPerShutdownPhase());
    }

    /** The listeners' shutdown timeout when none is configured: as long as the shutdown phase allows. */
    private static Duration defaultShutdownTimeout(Environment environment) {
        return ShutdownPhase.maxWait(shutdownPhaseTimeout(environment));
    }

    private static WorkerObserver composite(ObjectProvider<WorkerObserver> provider) {
        return CompositeWorkerObserver.of(provider.orderedStream().toList());
    }
}
