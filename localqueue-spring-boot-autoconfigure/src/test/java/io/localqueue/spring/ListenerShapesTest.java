package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.Acknowledgement;
import io.localqueue.BatchFailedException;
import io.localqueue.FailedMessage;
import io.localqueue.FailureReason;
import io.localqueue.Job;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

/**
 * The shapes a listener method may take beyond one payload: generic payload types, manual acknowledgement, batches;
 * what the application's Jackson settings do to payloads; and pausing a listener.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenerShapesTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);

    ListenerShapesTest() {
        super(JacksonAutoConfiguration.class, LocalQueueAutoConfiguration.class);
    }

    // ---------------------------------------------------------------- payload types

    @Test
    void aGenericPayloadTypeIsDecodedAllTheWayDown() {
        onTempDir().withBean(GenericListener.class, GenericListener::new).run(context -> {
            template(context).put("lists", List.of(new Email("a@example.com", "hi")));
            template(context).put("maps", Map.of("urgent", new Email("b@example.com", "now")));

            GenericListener listener = context.getBean(GenericListener.class);
            await().atMost(BOUND).until(() -> listener.lists.size() == 1 && listener.maps.size() == 1);
            assertThat(listener.lists.get(0)).singleElement().isInstanceOf(Email.class)
                    .isEqualTo(new Email("a@example.com", "hi"));
            assertThat(listener.maps.get(0).data().get("urgent")).isEqualTo(new Email("b@example.com", "now"));
        });
    }

    @Test
    void aTypeVariableBoundByTheBeansClassIsResolved() {
        onTempDir().withBean(EmailHandler.class, EmailHandler::new).run(context -> {
            template(context).put("inherited", new Email("c@example.com", "typed"));

            EmailHandler listener = context.getBean(EmailHandler.class);
            await().atMost(BOUND).until(() -> listener.received.size() == 1);
            assertThat(listener.received.get(0)).isInstanceOf(Email.class);
        });
    }

    @Test
    void aTypeVariableNothingBindsFailsTheStartNamingTheMethod() {
        onTempDir().withBean("unbound", UnboundHandler.class, UnboundHandler::new).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("unbound.handle")
                    .hasMessageContaining("cannot be resolved");
        });
    }

    @Test
    void springJacksonSettingsApplyAndTheBytesKeepPythonsSpelling() {
        onTempDir().withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE").run(context -> {
            template(context).put("snake", new Person("Zo\u00eb", 7));

            SimpleQueue<Object> raw = registry(context).queue("snake");
            Job<Object> job = raw.getNowait();
            String stored = new String(raw.serializer().serialize(job.data()), StandardCharsets.UTF_8);
            assertThat(stored).isEqualTo("{\"first_name\": \"Zo\\u00eb\", \"lucky_number\": 7}");
        });
    }

    @Test
    void withoutPythonSpellingTheApplicationMapperWritesItsOwn() {
        onTempDir().withPropertyValues("localqueue.json.python-spelling=false").run(context -> {
            SimpleQueue<Person> queue = registry(context).queue("own", Person.class);

            assertThat(new String(queue.serializer().serialize(new Person("Zo\u00eb", 7)), StandardCharsets.UTF_8))
                    .isEqualTo("{\"firstName\":\"Zo\u00eb\",\"luckyNumber\":7}");
        });
    }

    @Test
    void anApplicationPayloadSerializersBeanChoosesTheFormat() {
        onTempDir().withBean(PayloadSerializers.class, () -> (queue, type) -> new UpperCaseSerializer())
                .run(context -> {
                    SimpleQueue<Object> queue = registry(context).queue("shout");

                    assertThat(queue.serializer()).isInstanceOf(UpperCaseSerializer.class);
                });
    }

    // ---------------------------------------------------------------- manual acknowledgement

    @Test
    void aManualListenerSettlesEachJobAsItChooses() {
        onTempDir().withPropertyValues("localqueue.delivery.max-retries=3")
                .withBean(ManualListener.class, ManualListener::new).run(context -> {
                    LocalQueueTemplate template = template(context);
                    template.put("manual", "ack");
                    template.put("manual", "release");
                    template.put("manual", "reject");

                    ManualListener listener = context.getBean(ManualListener.class);
                    await().atMost(BOUND).until(() -> listener.seen.size() == 3);
                    await().atMost(BOUND).until(() -> template.stats("manual").equals(new QueueStats(1, 0, 1, 1)));
                    assertThat(listener.deliveries).containsOnly(1);
                    List<FailedMessage<Object>> dead = registry(context).queue("manual").listFailed();
                    assertThat(dead).singleElement().satisfies(message -> {
                        assertThat(message.reason()).isEqualTo(FailureReason.EXPLICIT_PERMANENT_FAILURE);
                        assertThat(message.lastError()).isEqualTo("not wanted");
                    });
                });
    }

    @Test
    void aManualListenerThatReturnsWithoutSettlingHasItsDeliveryFailed() {
        onTempDir().withPropertyValues("localqueue.delivery.max-retries=0")
                .withBean(ForgetfulListener.class, ForgetfulListener::new).run(context -> {
                    template(context).put("forgetful", "x");

                    await().atMost(BOUND).until(() -> template(context).stats("forgetful")
                            .equals(new QueueStats(0, 0, 0, 1)));
                    assertThat(registry(context).queue("forgetful").listFailed()).singleElement()
                            .satisfies(message -> assertThat(message.lastError())
                                    .contains("returned without acknowledging, releasing or rejecting job"));
                });
    }

    @Test
    void anAcknowledgementWithAutoModeFailsTheStart() {
        onTempDir().withBean("auto", AutoWithAcknowledgement.class, AutoWithAcknowledgement::new).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("auto.handle")
                    .hasMessageContaining("only MANUAL provides one");
        });
    }

    @Test
    void aManualDefaultRefusesAListenerWithoutAnAcknowledgementNamingTheProperty() {
        onTempDir().withPropertyValues("localqueue.listener.ack-mode=manual")
                .withBean(GenericListener.class, GenericListener::new).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("localqueue.listener.ack-mode")
                            .hasStackTraceContaining("needs the method to take an Acknowledgement");
                });
    }

    @Test
    void anUnknownAckModeFailsTheStartNamingTheMethod() {
        onTempDir().withBean("odd", OddAckMode.class, OddAckMode::new).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("odd.handle")
                    .hasStackTraceContaining("ackMode 'sometimes'; it must be AUTO or MANUAL");
        });
    }

    // ---------------------------------------------------------------- batches

    @Test
    void aBatchListenerGetsTypedBatchesAndABatchFailureFailsOnlyItsJob() {
        onTempDir().withPropertyValues("localqueue.delivery.max-retries=0")
                .withBean(BatchListener.class, BatchListener::new).run(context -> {
                    QueueListenerContainer container = container(context, "batches");
                    container.pause();
                    LocalQueueTemplate template = template(context);
                    for (int i = 0; i < 5; i++) {
                        template.put("batches", new Email(i + "@example.com", i == 3 ? "bad" : "ok"));
                    }
                    container.resume();

                    BatchListener listener = context.getBean(BatchListener.class);
                    await().atMost(BOUND).until(() -> template.stats("batches").equals(new QueueStats(0, 0, 4, 1)));
                    assertThat(listener.batches).first().satisfies(batch -> assertThat(batch).hasSize(3)
                            .allSatisfy(email -> assertThat(email).isInstanceOf(Email.class)));
                    assertThat(registry(context).queue("batches").listFailed()).singleElement()
                            .satisfies(message -> assertThat(message.lastError()).contains("bad subject"));
                });
    }

    @Test
    void aBatchListenerOfJobsSeesEachJob() {
        onTempDir().withBean(JobBatchListener.class, JobBatchListener::new).run(context -> {
            template(context).putAll("job-batches", List.of("a", "b"));

            JobBatchListener listener = context.getBean(JobBatchListener.class);
            await().atMost(BOUND).until(() -> listener.ids.size() == 2);
            await().atMost(BOUND).until(() -> template(context).stats("job-batches")
                    .equals(new QueueStats(0, 0, 2, 0)));
        });
    }

    @Test
    void batchMisconfigurationsFailTheStartNamingTheMethodOrProperty() {
        onTempDir().withBean("twoKinds", BatchWithAcknowledgement.class, BatchWithAcknowledgement::new)
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("twoKinds.handle").hasMessageContaining("batch listener"));
        onTempDir().withBean("notBatch", SizeWithoutBatch.class, SizeWithoutBatch::new)
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("notBatch.handle").hasMessageContaining("add batch = true"));
        onTempDir().withPropertyValues("localqueue.listener.batch-size=0")
                .withBean(JobBatchListener.class, JobBatchListener::new)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("localqueue.listener.batch-size"));
        onTempDir().withPropertyValues("localqueue.listener.prefetch=257")
                .withBean(JobBatchListener.class, JobBatchListener::new)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("localqueue.listener.prefetch"));
        onTempDir().withPropertyValues("localqueue.listener.batch-wait=45s")
                .withBean(JobBatchListener.class, JobBatchListener::new)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("localqueue.listener.batch-wait")
                        .hasStackTraceContaining("half the queue lease"));
    }

    // ---------------------------------------------------------------- pause

    @Test
    void aPausedListenerLetsItsRunningJobFinishAndTakesNoMoreUntilResumed() {
        onTempDir().withBean(SlowListener.class, SlowListener::new).run(context -> {
            SlowListener listener = context.getBean(SlowListener.class);
            LocalQueueTemplate template = template(context);
            template.putAll("slow", List.of("first", "second"));
            assertThat(listener.running.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

            QueueListenerContainer container = container(context, "slow");
            container.pause();
            listener.release.countDown();

            await().atMost(BOUND).until(() -> template.stats("slow").equals(new QueueStats(1, 0, 1, 0)));
            assertThat(container.isPaused()).isTrue();
            assertThat(container.isRunning()).isTrue();
            container.resume();
            await().atMost(BOUND).until(() -> template.stats("slow").equals(new QueueStats(0, 0, 2, 0)));
        });
    }

    // ---------------------------------------------------------------- support

    private static LocalQueueTemplate template(AssertableApplicationContext context) {
        return context.getBean(LocalQueueTemplate.class);
    }

    private static LocalQueueRegistry registry(AssertableApplicationContext context) {
        return context.getBean(LocalQueueRegistry.class);
    }

    private static QueueListenerContainer container(AssertableApplicationContext context, String id) {
        QueueListenerContainer container = context.getBean(QueueListenerEndpointRegistry.class)
                .getListenerContainer(id);
        assertThat(container).as("container %s", id).isNotNull();
        return container;
    }

    record Email(String to, String subject) {
    }

    record Person(String firstName, int luckyNumber) {
    }

    static class GenericListener {
        final List<List<Email>> lists = new CopyOnWriteArrayList<>();
        final List<Job<Map<String, Email>>> maps = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "lists")
        void lists(List<Email> emails) {
            lists.add(emails);
        }

        @QueueListener(queue = "maps")
        void maps(Job<Map<String, Email>> job) {
            maps.add(job);
        }
    }

    abstract static class TypedHandler<T> {
        final List<Object> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "inherited")
        void handle(T payload) {
            received.add(payload);
        }
    }

    static class EmailHandler extends TypedHandler<Email> {
    }

    static class UnboundHandler<T> {
        @QueueListener(queue = "unbound")
        void handle(T payload) {
        }
    }

    static class UpperCaseSerializer implements io.localqueue.Serializer<Object> {
        @Override
        public byte[] serialize(Object value) {
            return value.toString().toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Object deserialize(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    static class ManualListener {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final List<Integer> deliveries = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "manual")
        void handle(String payload, Acknowledgement ack) {
            seen.add(payload);
            deliveries.add(ack.deliveryCount());
            switch (payload) {
                case "ack" -> ack.acknowledge();
                case "release" -> ack.release(Duration.ofMinutes(10));
                default -> ack.reject("not wanted");
            }
        }
    }

    static class ForgetfulListener {
        @QueueListener(queue = "forgetful", ackMode = "MANUAL")
        void handle(Acknowledgement ack, String payload) {
        }
    }

    static class AutoWithAcknowledgement {
        @QueueListener(queue = "auto", ackMode = "auto")
        void handle(String payload, Acknowledgement ack) {
        }
    }

    static class OddAckMode {
        @QueueListener(queue = "odd", ackMode = "sometimes")
        void handle(String payload) {
        }
    }

    static class BatchListener {
        final List<List<Email>> batches = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "batches", id = "batches", batch = true, batchSize = "3")
        void handle(List<Email> emails) {
            batches.add(emails);
            for (int i = 0; i < emails.size(); i++) {
                if (emails.get(i).subject().equals("bad")) {
                    throw new BatchFailedException(i, new IllegalArgumentException("bad subject"));
                }
            }
        }
    }

    static class JobBatchListener {
        final List<Long> ids = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "job-batches", batch = true)
        void handle(List<Job<String>> jobs) {
            jobs.forEach(job -> ids.add(job.id()));
        }
    }

    static class BatchWithAcknowledgement {
        @QueueListener(queue = "two-kinds", batch = true)
        void handle(List<String> payloads, Acknowledgement ack) {
        }
    }

    static class SizeWithoutBatch {
        @QueueListener(queue = "not-batch", batchSize = "10")
        void handle(String payload) {
        }
    }

    static class SlowListener {
        final CountDownLatch running = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @QueueListener(queue = "slow", id = "slow")
        void handle(String payload) throws InterruptedException {
            running.countDown();
            release.await();
        }
    }
}
