package io.localqueue.spring.aot;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.QueueDiagnostics;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.actuate.DeadLetterPage;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.actuate.QueueActions;
import org.junit.jupiter.api.Test;
import org.springframework.aot.AotDetector;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.boot.test.context.FilteredClassLoader;

class LocalQueueRuntimeHintsTest {

    private final RuntimeHints hints = new RuntimeHints();

    @Test
    void aotFactoriesRegisterTheRegistrar() {
        assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
                .hasAtLeastOneElementOfType(LocalQueueRuntimeHints.class);
        assertThat(AotDetector.useGeneratedArtifacts()).isFalse();
    }

    @Test
    void theResourcesCoreAndTheStartReadAreIncluded() {
        register(getClass().getClassLoader());

        assertThat(RuntimeHintsPredicates.resource().forResource("io/localqueue/localqueue-version.properties"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.resource()
                .forResource("io/localqueue/spring/autoconfigure/localqueue-spring.properties")).accepts(hints);
        assertThat(getClass().getClassLoader().getResource(LocalQueueRuntimeHints.VERSION_RESOURCE)).isNotNull();
        assertThat(getClass().getClassLoader().getResource(LocalQueueRuntimeHints.BUILD_FACTS_RESOURCE)).isNotNull();
    }

    @Test
    void thePropertiesBindIncludingTheirNestedGroups() {
        register(getClass().getClassLoader());

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LocalQueueProperties.class, "setPath"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(LocalQueueProperties.Queue.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onMethodInvocation(LocalQueueProperties.Listener.class, "setPollInterval")).accepts(hints);
    }

    @Test
    void theEndpointsResponsesSerializeWithActuator() {
        register(getClass().getClassLoader());

        assertThat(RuntimeHintsPredicates.reflection()
                .onMethodInvocation(LocalQueueEndpoint.QueueDescriptor.class, "diagnostics")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onMethodInvocation(LocalQueueEndpoint.ListenerDescriptor.class, "activeJobs")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onMethodInvocation(LocalQueueEndpoint.RetryDescriptor.class, "outcome")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(QueueActions.ActionDescriptor.class,
                "affected")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(DeadLetterPage.DeadLetter.class, "reason"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(QueueDiagnostics.class, "ready"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LocalQueueEndpoint.BusDescriptor.class,
                "subscriptions")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                LocalQueueEndpoint.SubscriptionDescriptor.class, "activeDeliveries")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(io.localqueue.bus.ExecutionResult.class,
                "itemsCommitted")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(io.localqueue.bus.ExecutionSummary.class,
                "completedAt")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                io.localqueue.spring.actuate.ExecutionActions.DeletionDescriptor.class, "outcome")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                io.localqueue.spring.actuate.RecurringActions.RecurringDescriptor.class, "nextTick")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                io.localqueue.spring.actuate.RecurringActions.ActionDescriptor.class, "jobId")).accepts(hints);
    }

    @Test
    void withoutActuatorNoEndpointTypeIsRegistered() {
        register(new FilteredClassLoader("org.springframework.boot.actuate"));

        assertThat(RuntimeHintsPredicates.reflection().onType(LocalQueueEndpoint.QueueDescriptor.class))
                .rejects(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(LocalQueueProperties.class)).accepts(hints);
    }

    private void register(ClassLoader classLoader) {
        new LocalQueueRuntimeHints().registerHints(hints, classLoader);
    }
}
