package io.localqueue.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.Job;
import io.localqueue.spring.QueueListener;
import java.util.List;
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

class QueueListenerBeanRegistrationAotProcessorTest {

    private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    private final DefaultGenerationContext generation = new DefaultGenerationContext(
            new ClassNameGenerator(ClassName.get("io.localqueue.example", "Example")), new InMemoryGeneratedFiles());

    @Test
    void aotFactoriesRegisterTheProcessor() {
        assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
                .hasAtLeastOneElementOfType(QueueListenerBeanRegistrationAotProcessor.class);
    }

    @Test
    void aListenerMethodIsInvocableAndItsPayloadBindable() {
        RuntimeHints hints = process(PayloadListener.class);

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PayloadListener.class, "send"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Invoice.class, "number")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Line.class, "amount")).accepts(hints);
    }

    @Test
    void aMethodTakingAJobBindsTheJobsPayloadNotTheJob() {
        RuntimeHints hints = process(JobListener.class);

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(JobListener.class, "render"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Invoice.class, "lines")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Job.class)).rejects(hints);
    }

    @Test
    void aBeanWithoutListenersContributesNothing() {
        beans.registerBeanDefinition("plain", new RootBeanDefinition(Plain.class));

        BeanRegistrationAotContribution contribution = new QueueListenerBeanRegistrationAotProcessor()
                .processAheadOfTime(RegisteredBean.of(beans, "plain"));

        assertThat(contribution).isNull();
    }

    private RuntimeHints process(Class<?> beanClass) {
        beans.registerBeanDefinition("listener", new RootBeanDefinition(beanClass));
        BeanRegistrationAotContribution contribution = new QueueListenerBeanRegistrationAotProcessor()
                .processAheadOfTime(RegisteredBean.of(beans, "listener"));
        assertThat(contribution).isNotNull();
        contribution.applyTo(generation, null);
        return generation.getRuntimeHints();
    }

    record Line(String item, long amount) {
    }

    record Invoice(String number, List<Line> lines) {
    }

    static class PayloadListener {
        @QueueListener(queue = "invoices")
        void send(Invoice invoice) {
        }
    }

    static class JobListener {
        @QueueListener(queue = "invoices")
        void render(Job<Invoice> job) {
        }
    }

    static class Plain {
        void handle(Invoice invoice) {
        }
    }
}
