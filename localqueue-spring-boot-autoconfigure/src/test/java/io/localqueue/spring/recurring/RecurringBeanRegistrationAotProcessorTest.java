package io.localqueue.spring.recurring;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.Job;
import io.localqueue.spring.Recurring;
import java.time.Instant;
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

class RecurringBeanRegistrationAotProcessorTest {

    private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();

    @Test
    void aotFactoriesRegisterTheProcessor() {
        assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
                .hasAtLeastOneElementOfType(RecurringBeanRegistrationAotProcessor.class);
    }

    @Test
    void aRecurringMethodAndTheDispatcherThatCallsItAreInvocable() {
        beans.registerBeanDefinition("reports", new RootBeanDefinition(Reports.class));
        BeanRegistrationAotContribution contribution = new RecurringBeanRegistrationAotProcessor()
                .processAheadOfTime(RegisteredBean.of(beans, "reports"));
        assertThat(contribution).isNotNull();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("io.localqueue.example", "Example")), new InMemoryGeneratedFiles());
        contribution.applyTo(generation, null);
        RuntimeHints hints = generation.getRuntimeHints();

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Reports.class, "nightly")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RecurringDispatcher.class, "run"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Job.class)).rejects(hints);
    }

    @Test
    void aBeanWithoutRecurringMethodsContributesNothing() {
        beans.registerBeanDefinition("plain", new RootBeanDefinition(Object.class));
        assertThat(new RecurringBeanRegistrationAotProcessor().processAheadOfTime(RegisteredBean.of(beans, "plain")))
                .isNull();
    }

    static class Reports {
        @Recurring(id = "nightly", cron = "@daily")
        void nightly(Instant tick) {
        }
    }
}
