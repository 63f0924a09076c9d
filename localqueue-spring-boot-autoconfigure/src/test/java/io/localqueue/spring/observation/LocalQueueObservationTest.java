package io.localqueue.spring.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.QueueFullException;
import io.localqueue.QueueStats;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueObservationAutoConfiguration;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.observation.tracing.QueueListenerTracingObservationHandler;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.tracing.Tracer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The observations of listeners and of the template with a test registry: off unless enabled, one per delivery or
 * write, named and tagged by the conventions (queue, listener id, outcome; never a payload), in scope while the
 * handler runs, replaceable by a convention bean.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalQueueObservationTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String LISTENER = "localqueue.listener";
    private static final String TEMPLATE = "localqueue.template";

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    LocalQueueObservationTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueObservationAutoConfiguration.class);
    }

    private ApplicationContextRunner observed(String... properties) {
        return onTempDir().withBean(ObservationRegistry.class, () -> registry).withPropertyValues(properties)
                .withBean("emails", EmailListener.class, () -> new EmailListener(registry));
    }

    @Test
    void nothingIsObservedUnlessEnabled() {
        observed().run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("emails", "hello");

            await().atMost(BOUND).until(() -> template.stats("emails").equals(new QueueStats(0, 0, 1, 0)));
            assertThat(context).doesNotHaveBean(ObservingJobHandlerDecorator.class)
                    .doesNotHaveBean(ObservingEnqueueInterceptor.class);
            assertThat(context.getBean(EmailListener.class).observations).containsExactly((Observation) null);
            assertThat(registry).doesNotHaveAnyObservation();
        });
    }

    @Test
    void eachHandledDeliveryIsObservedWithItsQueueListenerAndOutcomeAndInScopeWhileTheMethodRuns() {
        observed("localqueue.listener.observation-enabled=true").run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            long id = template.put("emails", "hello");

            awaitAcked(template, "emails", 1);
            assertThat(registry).hasSingleObservationThat().hasNameEqualTo(LISTENER)
                    .hasContextualNameEqualTo("process emails")
                    .hasLowCardinalityKeyValue("queue", "emails")
                    .hasLowCardinalityKeyValue("listener.id", "emails.handle")
                    .hasLowCardinalityKeyValue("outcome", "success")
                    .hasHighCardinalityKeyValue("job.id", Long.toString(id))
                    .hasHighCardinalityKeyValue("job.attempts", "0")
                    .doesNotHaveError().hasBeenStarted().hasBeenStopped();
            Observation inScope = context.getBean(EmailListener.class).observations.get(0);
            assertThat(inScope).isNotNull();
            assertThat(inScope.getContext()).isInstanceOf(JobReceiverContext.class);
            assertThat(lowCardinalityKeys(inScope)).containsExactlyInAnyOrder("queue", "listener.id", "outcome");
        });
    }

    @Test
    void aMethodThatThrowsIsObservedAsAFailureAndItsJobIsStillRetried() {
        observed("localqueue.listener.observation-enabled=true", "localqueue.delivery.backoff.initial-delay=0s")
                .withBean("once", FailsOnceListener.class, FailsOnceListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("once", "flaky");

                    awaitAcked(template, "once", 1);
                    assertThat(registry).hasNumberOfObservationsWithNameEqualTo(LISTENER, 2).hasAnObservation(observation -> observation
                                    .hasLowCardinalityKeyValue("outcome", "failure")
                                    .hasHighCardinalityKeyValue("job.attempts", "0")
                                    .assertThatError().isInstanceOf(IllegalStateException.class)
                                    .hasMessage("first delivery fails"))
                            .hasAnObservation(observation -> observation
                                    .hasLowCardinalityKeyValue("outcome", "success")
                                    .hasHighCardinalityKeyValue("job.attempts", "1").doesNotHaveError());
                });
    }

    @Test
    void aBatchListenersBatchIsOneObservationThatCountsItsJobs() {
        observed("localqueue.listener.observation-enabled=true")
                .withBean("batches", BatchListener.class, () -> new BatchListener(registry)).run(context -> {
                    context.getBean(QueueListenerEndpointRegistry.class).getListenerContainer("batches").pause();
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.putAll("batches", List.of("a", "b", "c"));
                    context.getBean(QueueListenerEndpointRegistry.class).getListenerContainer("batches").resume();

                    awaitAcked(template, "batches", 3);
                    assertThat(registry).hasSingleObservationThat().hasNameEqualTo(LISTENER)
                            .hasContextualNameEqualTo("process batches")
                            .hasLowCardinalityKeyValue("listener.id", "batches")
                            .hasLowCardinalityKeyValue("outcome", "success")
                            .hasHighCardinalityKeyValue("job.count", "3");
                    Observation inScope = context.getBean(BatchListener.class).observations.get(0);
                    assertThat(((JobReceiverContext) inScope.getContext()).isBatch()).isTrue();
                });
    }

    @Test
    void eachWriteOfTheTemplateIsObservedWithItsQueueOutcomeAndJobCount() {
        observed("localqueue.template.observation-enabled=true", "localqueue.listener.auto-startup=false")
                .run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "one");
                    template.putMany("emails", List.of(EnqueueItem.of("a"), EnqueueItem.of("b", "job-b")));
                    template.putAll("emails", List.of("c", "d", "e"));

                    assertThat(registry).hasNumberOfObservationsWithNameEqualTo(TEMPLATE, 3)
                            .forAllObservationsWithNameEqualTo(TEMPLATE, observation -> observation
                                    .hasContextualNameEqualTo("send emails")
                                    .hasLowCardinalityKeyValue("queue", "emails")
                                    .hasLowCardinalityKeyValue("outcome", "success"))
                            .hasAnObservation(observation -> observation.hasHighCardinalityKeyValue("job.count", "1"))
                            .hasAnObservation(observation -> observation.hasHighCardinalityKeyValue("job.count", "2"))
                            .hasAnObservation(observation -> observation.hasHighCardinalityKeyValue("job.count", "3"));
                    assertThat(registry).hasHandledContextsThatSatisfy(contexts -> assertThat(contexts)
                            .allSatisfy(observed -> assertThat(observed.getLowCardinalityKeyValues().stream()
                                    .map(KeyValue::getKey)).containsExactlyInAnyOrder("queue", "outcome")));
                });
    }

    @Test
    void aWriteThatFailsIsObservedAsAFailure() {
        observed("localqueue.template.observation-enabled=true", "localqueue.listener.auto-startup=false",
                "localqueue.queues.emails.max-pending-jobs=1", "localqueue.queues.emails.producer.max-wait=0s")
                .run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "fits");

                    assertThatThrownBy(() -> template.put("emails", "does not fit"))
                            .isInstanceOf(QueueFullException.class);

                    assertThat(registry).hasAnObservation(observation -> observation
                            .hasLowCardinalityKeyValue("outcome", "failure")
                            .assertThatError().isInstanceOf(QueueFullException.class));
                });
    }

    @Test
    void withoutATracingBridgeTheJobsGetNoHeaders() {
        observed("localqueue.template.observation-enabled=true", "localqueue.listener.observation-enabled=true")
                .run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "hello");

                    awaitAcked(template, "emails", 1);
                    assertThat(registry).hasNumberOfObservationsWithNameEqualTo(LISTENER, 1)
                            .hasNumberOfObservationsWithNameEqualTo(TEMPLATE, 1);
                    assertThat(context.getBean(EmailListener.class).jobs.get(0).headers()).isEmpty();
                    assertThat(context).doesNotHaveBean(QueueListenerTracingObservationHandler.class);
                });
    }

    @Test
    void conventionBeansReplaceTheDefaultNamesAndTags() {
        observed("localqueue.template.observation-enabled=true", "localqueue.listener.observation-enabled=true")
                .withBean(QueueListenerObservationConvention.class, TeamListenerConvention::new)
                .withBean(LocalQueueTemplateObservationConvention.class, TeamTemplateConvention::new)
                .run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "hello");

                    awaitAcked(template, "emails", 1);
                    assertThat(registry).hasObservationWithNameEqualTo("team.jobs.sent").that()
                            .hasLowCardinalityKeyValue("team", "mail").hasBeenStopped();
                    assertThat(registry).hasObservationWithNameEqualTo("team.jobs.handled").that()
                            .hasLowCardinalityKeyValue("team", "mail")
                            .doesNotHaveLowCardinalityKeyValueWithKey("queue");
                });
    }

    @Test
    void withoutAnObservationRegistryTheListenersRunUnobserved() {
        onTempDir().withPropertyValues("localqueue.listener.observation-enabled=true",
                        "localqueue.template.observation-enabled=true")
                .withBean("emails", EmailListener.class, () -> new EmailListener(registry)).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "hello");

                    await().atMost(BOUND).until(() -> template.stats("emails").equals(new QueueStats(0, 0, 1, 0)));
                    assertThat(context).doesNotHaveBean(ObservingJobHandlerDecorator.class)
                            .doesNotHaveBean(ObservingEnqueueInterceptor.class);
                });
    }

    @Test
    void withoutMicrometerTracingTheListenersAreObservedWithoutTracingSupport() {
        observed("localqueue.listener.observation-enabled=true").withClassLoader(new FilteredClassLoader(Tracer.class))
                .run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "hello");

                    awaitAcked(template, "emails", 1);
                    assertThat(registry).hasSingleObservationThat().hasNameEqualTo(LISTENER).hasBeenStopped();
                    assertThat(context).hasNotFailed().hasSingleBean(ObservingJobHandlerDecorator.class)
                            .doesNotHaveBean(QueueListenerTracingObservationHandler.class);
                });
    }

    /** Waits until {@code acked} jobs of the queue were acknowledged, which comes after their observations ended. */
    private static void awaitAcked(LocalQueueTemplate template, String queue, int acked) {
        await().atMost(BOUND).until(() -> template.stats(queue).equals(new QueueStats(0, 0, acked, 0)));
    }

    private static List<String> lowCardinalityKeys(Observation observation) {
        return observation.getContext().getLowCardinalityKeyValues().stream().map(KeyValue::getKey).toList();
    }

    static class EmailListener {
        final List<@Nullable Observation> observations = new CopyOnWriteArrayList<>();
        final List<Job<String>> jobs = new CopyOnWriteArrayList<>();
        private final ObservationRegistry registry;

        EmailListener(ObservationRegistry registry) {
            this.registry = registry;
        }

        @QueueListener(queue = "emails")
        void handle(Job<String> job) {
            observations.add(registry.getCurrentObservation());
            jobs.add(job);
        }
    }

    static class BatchListener {
        final List<@Nullable Observation> observations = new CopyOnWriteArrayList<>();
        private final ObservationRegistry registry;

        BatchListener(ObservationRegistry registry) {
            this.registry = registry;
        }

        @QueueListener(queue = "batches", id = "batches", batch = true)
        void handle(List<String> payloads) {
            observations.add(registry.getCurrentObservation());
        }
    }

    static class FailsOnceListener {
        @QueueListener(queue = "once")
        void handle(Job<String> job) {
            if (job.attempts() == 0) {
                throw new IllegalStateException("first delivery fails");
            }
        }
    }

    static class TeamListenerConvention implements QueueListenerObservationConvention {
        @Override
        public String getName() {
            return "team.jobs.handled";
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(JobReceiverContext context) {
            return KeyValues.of("team", context.getQueue().equals("emails") ? "mail" : "other");
        }
    }

    static class TeamTemplateConvention implements LocalQueueTemplateObservationConvention {
        @Override
        public String getName() {
            return "team.jobs.sent";
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(JobSenderContext context) {
            return KeyValues.of("team", "mail");
        }
    }
}
