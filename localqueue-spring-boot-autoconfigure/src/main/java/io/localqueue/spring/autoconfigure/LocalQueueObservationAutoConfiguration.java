package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.observation.BusDispatchObservationConvention;
import io.localqueue.spring.observation.BusHandlerObservationConvention;
import io.localqueue.spring.observation.LocalQueueTemplateObservationConvention;
import io.localqueue.spring.observation.ObservingDispatchInterceptor;
import io.localqueue.spring.observation.ObservingEnqueueInterceptor;
import io.localqueue.spring.observation.ObservingEventHandlerDecorator;
import io.localqueue.spring.observation.ObservingJobHandlerDecorator;
import io.localqueue.spring.observation.QueueListenerObservationConvention;
import io.localqueue.spring.observation.tracing.BusHandlerTracingObservationHandler;
import io.localqueue.spring.observation.tracing.QueueListenerTracingObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * Micrometer Observation of localqueue, off by default like Spring Kafka's: with
 * {@code localqueue.listener.observation-enabled} each delivery a listener handles is observed, with
 * {@code localqueue.template.observation-enabled} each write of the template, its trace context stored with the jobs,
 * and with {@code localqueue.bus.observation-enabled} each dispatch of the event bus, its trace context stored with
 * the deliveries, and each delivery an event handler method handles. Needs an {@link ObservationRegistry} bean; a
 * bean of a convention ({@link QueueListenerObservationConvention}, {@link LocalQueueTemplateObservationConvention},
 * {@link BusDispatchObservationConvention}, {@link BusHandlerObservationConvention}) replaces the default names and
 * tags. With Micrometer Tracing, a tracing handler links each redelivery's span to the span that put the job or
 * dispatched the event.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocalQueueAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration"})
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
public final class LocalQueueObservationAutoConfiguration {

    static final String LISTENER_PROPERTY = "localqueue.listener.observation-enabled";
    static final String TEMPLATE_PROPERTY = "localqueue.template.observation-enabled";
    static final String BUS_PROPERTY = "localqueue.bus.observation-enabled";

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(LISTENER_PROPERTY)
    ObservingJobHandlerDecorator localQueueListenerObservation(ObservationRegistry registry,
            ObjectProvider<QueueListenerObservationConvention> convention) {
        return new ObservingJobHandlerDecorator(registry, convention.getIfUnique());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(TEMPLATE_PROPERTY)
    ObservingEnqueueInterceptor localQueueTemplateObservation(ObservationRegistry registry,
            ObjectProvider<LocalQueueTemplateObservationConvention> convention) {
        return new ObservingEnqueueInterceptor(registry, convention.getIfUnique());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(BUS_PROPERTY)
    ObservingDispatchInterceptor localQueueBusDispatchObservation(ObservationRegistry registry,
            ObjectProvider<BusDispatchObservationConvention> convention) {
        return new ObservingDispatchInterceptor(registry, convention.getIfUnique());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(BUS_PROPERTY)
    ObservingEventHandlerDecorator localQueueBusHandlerObservation(ObservationRegistry registry,
            ObjectProvider<BusHandlerObservationConvention> convention) {
        return new ObservingEventHandlerDecorator(registry, convention.getIfUnique());
    }

    /** The span links of redeliveries, which need Micrometer Tracing's API and a tracer with a propagator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Tracer.class)
    @ConditionalOnBean({Tracer.class, Propagator.class})
    @ConditionalOnBooleanProperty(LISTENER_PROPERTY)
    static class ListenerTracingConfiguration {

        /** Ahead of Micrometer Tracing's receiver handler, which then handles every other receiver. */
        @Bean
        @ConditionalOnMissingBean
        @Order(MicrometerTracingAutoConfiguration.RECEIVER_TRACING_OBSERVATION_HANDLER_ORDER - 10)
        QueueListenerTracingObservationHandler queueListenerTracingObservationHandler(Tracer tracer,
                                                                                   Propagator propagator) {
            return new QueueListenerTracingObservationHandler(tracer, propagator);
        }
    }

    /** The span links of event handlers' redeliveries, as for listeners. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Tracer.class)
    @ConditionalOnBean({Tracer.class, Propagator.class})
    @ConditionalOnBooleanProperty(BUS_PROPERTY)
    static class BusTracingConfiguration {

        /** Ahead of Micrometer Tracing's receiver handler, which then handles every other receiver. */
        @Bean
        @ConditionalOnMissingBean
        @Order(MicrometerTracingAutoConfiguration.RECEIVER_TRACING_OBSERVATION_HANDLER_ORDER - 10)
        BusHandlerTracingObservationHandler busHandlerTracingObservationHandler(Tracer tracer, Propagator propagator) {
            return new BusHandlerTracingObservationHandler(tracer, propagator);
        }
    }
}
