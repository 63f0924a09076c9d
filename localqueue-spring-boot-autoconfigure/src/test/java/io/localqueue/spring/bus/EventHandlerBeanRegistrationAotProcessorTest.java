package io.localqueue.spring.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.bus.EventContext;
import io.localqueue.spring.EventHandler;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

class EventHandlerBeanRegistrationAotProcessorTest {

    private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    private final DefaultGenerationContext generation = new DefaultGenerationContext(
            new ClassNameGenerator(ClassName.get("io.localqueue.example", "Example")), new InMemoryGeneratedFiles());

    record Invoice(String number, long amount) {
    }

    static class Handlers {
        @EventHandler
        void paid(EventContext context, Invoice invoice) {
        }
    }

    static class Plain {
        void paid(Invoice invoice) {
        }
    }

    @Test
    void aotFactoriesRegisterTheProcessor() {
        assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
                .hasAtLeastOneElementOfType(EventHandlerBeanRegistrationAotProcessor.class);
    }

    @Test
    void aHandlerMethodIsInvocableAndItsEventBindableButNotItsContext() {
        beans.registerBeanDefinition("handlers", new RootBeanDefinition(Handlers.class));
        BeanRegistrationAotContribution contribution = new EventHandlerBeanRegistrationAotProcessor()
                .processAheadOfTime(RegisteredBean.of(beans, "handlers"));
        assertThat(contribution).isNotNull();
        contribution.applyTo(generation, null);
        RuntimeHints hints = generation.getRuntimeHints();

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handlers.class, "paid")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Invoice.class, "number")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(EventContext.class)).rejects(hints);
    }

    @Test
    void aBeanWithoutHandlersContributesNothing() {
        beans.registerBeanDefinition("plain", new RootBeanDefinition(Plain.class));

        assertThat(new EventHandlerBeanRegistrationAotProcessor().processAheadOfTime(RegisteredBean.of(beans,
                "plain"))).isNull();
    }
}
