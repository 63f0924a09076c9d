package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.FailedMessage;
import io.localqueue.FailureReason;
import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.listener.DefaultQueueListenerContainerFactory;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpoint;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueueListenerTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);

    // ---------------------------------------------------------------- parameters and attributes

    @Test
    void methodTakingThePayloadReceivesTheDecodedPayload() {
        onTempDir().withBean("emails", PayloadListener.class, PayloadListener::new).run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("emails", new Email("a@example.com", "hi"));

            PayloadListener listener = context.getBean(PayloadListener.class);
            await().atMost(BOUND).until(() -> listener.received.size() == 1);
            assertThat(listener.received).containsExactly(new Email("a@example.com", "hi"));
            await().atMost(BOUND).until(() -> template.stats("emails").equals(new QueueStats(0, 0, 1, 0)));
        });
    }

    @Test
    void methodTakingAJobReceivesIdAttemptsAndTypedData() {
        onTempDir().withBean("jobs", JobListener.class, JobListener::new).run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            long id = template.put("jobs", new Email("b@example.com", "job"));

            JobListener listener = context.getBean(JobListener.class);
            await().atMost(BOUND).until(() -> listener.received.size() == 1);
            Job<Email> job = listener.received.get(0);
            assertThat(job.id()).isEqualTo(id);
            assertThat(job.attempts()).isZero();
            assertThat(job.data()).isEqualTo(new Email("b@example.com", "job"));
            assertThat(job.queueName()).isEqualTo("jobs");
            await().atMost(BOUND).until(() -> template.stats("jobs").equals(new QueueStats(0, 0, 1, 0)));
        });
    }

    @Test
    void placeholdersResolveInQueueAndConcurrency() {
        onTempDir().withPropertyValues("app.queue=orders", "app.workers=2")
                .withBean("orders", PlaceholderListener.class, PlaceholderListener::new).run(context -> {
                    QueueListenerContainer container = context.getBean(QueueListenerEndpointRegistry.class)
                            .getListenerContainer("orders.handle");
                    assertThat(container).isNotNull();
                    assertThat(container.endpoint().queue()).isEqualTo("orders");
                    assertThat(container.endpoint().concurrency()).isEqualTo(2);

                    PlaceholderListener listener = context.getBean(PlaceholderListener.class);
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("orders", "o-1");
                    template.put("orders", "o-2");
                    // Two invocations block together: only a concurrency of two lets both start.
                    assertThat(listener.bothStarted.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
                    listener.release.countDown();
                    await().atMost(BOUND).until(() -> template.stats("orders").equals(new QueueStats(0, 0, 2, 0)));
                });
    }

    @Test
    void idDefaultsToBeanNameAndMethodName() {
        onTempDir().withBean("mailer", PayloadListener.class, PayloadListener::new).run(context -> {
            QueueListenerEndpointRegistry registry = context.getBean(QueueListenerEndpointRegistry.class);
            assertThat(registry.getListenerContainers()).extracting(c -> c.endpoint().id())
                    .containsExactly("mailer.handle");
            assertThat(registry.getListenerContainer("mailer.handle").isRunning()).isTrue();
        });
    }

    @Test
    void explicitIdIsUsedAndMayBeAPlaceholder() {
        onTempDir().withPropertyValues("app.listener-id=billing-listener")
                .withBean("billing", NamedListener.class, NamedListener::new).run(context -> {
                    QueueListenerEndpointRegistry registry = context.getBean(QueueListenerEndpointRegistry.class);
                    assertThat(registry.getListenerContainer("billing-listener")).isNotNull();
                    assertThat(registry.getListenerContainer("billing.handle")).isNull();
                });
    }

    @Test
    void autoStartupFalseLeavesTheContainerStoppedUntilStarted() {
        onTempDir().withBean("manual", ManualListener.class, ManualListener::new).run(context -> {
            QueueListenerContainer container = context.getBean(QueueListenerEndpointRegistry.class)
                    .getListenerContainer("manual.handle");
            assertThat(container.isAutoStartup()).isFalse();
            assertThat(container.isRunning()).isFalse();
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("manual", "waiting");
            assertThat(template.stats("manual")).isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(context.getBean(ManualListener.class).received).isEmpty();

            container.start();

            assertThat(container.isRunning()).isTrue();
            await().atMost(BOUND).until(() -> template.stats("manual").equals(new QueueStats(0, 0, 1, 0)));
            assertThat(context.getBean(ManualListener.class).received).containsExactly("waiting");
        });
    }

    @Test
    void runOnceHandlesADueJobOnTheCallingThreadWithTheListenersRules() {
        onTempDir().withBean("manual", ManualListener.class, ManualListener::new)
                .withBean("strict", ManualStrictListener.class, ManualStrictListener::new).run(context -> {
                    QueueListenerEndpointRegistry registry = context.getBean(QueueListenerEndpointRegistry.class);
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("manual", "waiting");
                    template.put("manual-strict", new Email("x@invalid", "never"));
                    QueueListenerContainer manual = registry.getListenerContainer("manual.handle");

                    assertThat(manual.runOnce()).isTrue();
                    assertThat(manual.runOnce()).isFalse();
                    assertThat(registry.getListenerContainer("strict.handle").runOnce()).isTrue();

                    ManualListener listener = context.getBean(ManualListener.class);
                    assertThat(listener.received).containsExactly("waiting");
                    assertThat(listener.threads).containsExactly(Thread.currentThread().getName());
                    assertThat(manual.isRunning()).isFalse();
                    assertThat(template.stats("manual")).isEqualTo(new QueueStats(0, 0, 1, 0));
                    assertThat(registry(context).queue("manual-strict", Email.class).listFailed())
                            .singleElement().extracting(FailedMessage::reason)
                            .isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
                });
    }

    @Test
    void registryWithoutAutoStartupStartsNoListenerUntilStarted() {
        onTempDir().withUserConfiguration(ManualRegistryConfig.class)
                .withBean("eager", EagerListener.class, EagerListener::new).run(context -> {
                    QueueListenerEndpointRegistry registry = context.getBean(QueueListenerEndpointRegistry.class);
                    QueueListenerContainer eager = registry.getListenerContainer("eager.handle");
                    assertThat(registry.isAutoStartup()).isFalse();
                    assertThat(registry.isRunning()).isFalse();
                    assertThat(eager.isRunning()).isFalse();

                    registry.start();

                    assertThat(eager.isRunning()).isTrue();
                });
    }

    @Test
    void stoppedContainerCanBeStartedAgain() {
        onTempDir().withBean("emails", PayloadListener.class, PayloadListener::new).run(context -> {
            QueueListenerContainer container = context.getBean(QueueListenerEndpointRegistry.class)
                    .getListenerContainer("emails.handle");
            assertThat(container.stop()).isTrue();
            assertThat(container.isRunning()).isFalse();
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("emails", new Email("d@example.com", "after restart"));
            assertThat(template.stats("emails")).isEqualTo(new QueueStats(1, 0, 0, 0));

            container.start();

            await().atMost(BOUND).until(() -> template.stats("emails").equals(new QueueStats(0, 0, 1, 0)));
            assertThat(context.getBean(PayloadListener.class).received).extracting(Email::subject)
                    .containsExactly("after restart");
        });
    }

    @Test
    void autoStartupPropertyFalseLeavesListenersStoppedUnlessTheyOptIn() {
        onTempDir().withPropertyValues("localqueue.listener.auto-startup=false")
                .withBean("emails", PayloadListener.class, PayloadListener::new)
                .withBean("eager", EagerListener.class, EagerListener::new).run(context -> {
                    QueueListenerEndpointRegistry registry = context.getBean(QueueListenerEndpointRegistry.class);
                    assertThat(registry.getListenerContainer("emails.handle").isRunning()).isFalse();
                    assertThat(registry.getListenerContainer("eager.handle").isRunning()).isTrue();

                    registry.getListenerContainer("emails.handle").start();
                    context.getBean(LocalQueueTemplate.class).put("emails", new Email("c@example.com", "late"));
                    await().atMost(BOUND).until(() -> context.getBean(PayloadListener.class).received.size() == 1);
                });
    }

    // ---------------------------------------------------------------- outcomes

    @Test
    void permanentErrorDeadLettersTheJobAtOnce() {
        onTempDir().withBean("strict", StrictListener.class, StrictListener::new).run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            long id = template.put("strict", new Email("not-an-address", "x"));

            await().atMost(BOUND).until(() -> template.stats("strict").equals(new QueueStats(0, 0, 0, 1)));
            FailedMessage<Object> dead = registry(context).queue("strict").listFailed().get(0);
            assertThat(dead.id()).isEqualTo(id);
            assertThat(dead.reason()).isEqualTo(FailureReason.PERMANENT_HANDLER_ERROR);
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.lastError()).isEqualTo(BadRecipient.class.getName() + ": not-an-address");
            assertThat(context.getBean(StrictListener.class).calls).hasValue(1);
        });
    }

    @Test
    void transientErrorIsRetriedUpToMaxRetriesThenDeadLettered() {
        onTempDir().withPropertyValues("localqueue.queues.flaky.delivery.max-retries=2",
                        "localqueue.delivery.backoff.initial-delay=0s")
                .withBean("flaky", AlwaysFailingListener.class, AlwaysFailingListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    long id = template.put("flaky", "doomed");

                    await().atMost(BOUND).until(() -> template.stats("flaky").equals(new QueueStats(0, 0, 0, 1)));
                    FailedMessage<Object> dead = registry(context).queue("flaky").listFailed().get(0);
                    assertThat(dead.id()).isEqualTo(id);
                    assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
                    assertThat(dead.attempts()).isEqualTo(3);
                    assertThat(dead.lastError()).isEqualTo("java.lang.IllegalStateException: downstream unavailable");
                    assertThat(context.getBean(AlwaysFailingListener.class).attempts).containsExactly(0, 1, 2);
                });
    }

    @Test
    void aFailedJobWaitsItsQueuesBackoffBeforeItsNextDelivery() {
        onTempDir().withPropertyValues("localqueue.queues.flaky.delivery.backoff.initial-delay=1h",
                        "localqueue.queues.flaky.delivery.backoff.jitter=false")
                .withBean("flaky", AlwaysFailingListener.class, AlwaysFailingListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    long id = template.put("flaky", "later");

                    await().atMost(BOUND).until(() -> template.stats("flaky").equals(new QueueStats(1, 0, 0, 0))
                            && context.getBean(AlwaysFailingListener.class).attempts.size() == 1);
                    try (java.sql.Connection raw = java.sql.DriverManager.getConnection(
                            "jdbc:sqlite:" + dir.resolve("localqueue.db"));
                         java.sql.ResultSet row = raw.createStatement().executeQuery(
                                 "SELECT available_at - updated_at FROM messages WHERE id = " + id)) {
                        row.next();
                        assertThat(row.getLong(1)).as("due one hour after the failure").isEqualTo(3_600_000L);
                    }
                });
    }

    @Test
    void everyWorkerObserverBeanHearsOfFinishedJobsAndExpiredLeases() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("slow")
                .delivery(new io.localqueue.DeliveryPolicy(Duration.ofMillis(300), 3)).build()) {
            queue.put("abandoned");
            queue.getNowait(); // a delivery whose process died: its lease runs out
        }
        RecordingObserver first = new RecordingObserver();
        RecordingObserver second = new RecordingObserver();
        onTempDir().withBean("first", WorkerObserver.class, () -> first)
                .withBean("second", WorkerObserver.class, () -> second)
                .withBean("slow", RecordingJobListener.class, RecordingJobListener::new).run(context -> {
                    await().atMost(BOUND).until(() -> first.finished.size() == 1 && second.finished.size() == 1);
                    for (RecordingObserver observer : List.of(first, second)) {
                        assertThat(observer.finished).containsExactly(JobOutcome.ACKED);
                        assertThat(observer.expired).containsExactly("slow");
                    }
                });
    }

    @Test
    void aJobItsListenerMadeADeadLetterIsPublishedAsAnApplicationEvent() {
        onTempDir().withPropertyValues("localqueue.queues.flaky.delivery.max-retries=0")
                .withBean("flaky", AlwaysFailingListener.class, AlwaysFailingListener::new)
                .withBean("alerts", DeadLetterAlerts.class, DeadLetterAlerts::new).run(context -> {
                    long id = context.getBean(LocalQueueTemplate.class).put("flaky", "doomed");
                    DeadLetterAlerts alerts = context.getBean(DeadLetterAlerts.class);

                    await().atMost(BOUND).until(() -> alerts.received.size() == 1);
                    JobDeadLetteredEvent event = alerts.received.get(0);
                    assertThat(event.getQueue()).isEqualTo("flaky");
                    assertThat(event.getJobId()).isEqualTo(id);
                    assertThat(event.getReason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
                    assertThat(event.getLastError()).isEqualTo("java.lang.IllegalStateException: downstream unavailable");
                    assertThat(event.getAttempts()).isEqualTo(1);
                });
    }

    @Test
    void jobWhoseListenerThrewIsDeliveredAgain() {
        onTempDir().withBean("once", FailsOnceListener.class, FailsOnceListener::new).run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            long id = template.put("once", "again please");

            await().atMost(BOUND).until(() -> template.stats("once").equals(new QueueStats(0, 0, 1, 0)));
            FailsOnceListener listener = context.getBean(FailsOnceListener.class);
            assertThat(listener.deliveries).extracting(Job::id).containsExactly(id, id);
            assertThat(listener.deliveries).extracting(Job::attempts).containsExactly(0, 1);
        });
    }

    @Test
    void customContainerFactoryNamedByTheListenerIsUsed() {
        onTempDir().withUserConfiguration(CustomFactoryConfig.class)
                .withBean("custom", CustomFactoryListener.class, CustomFactoryListener::new)
                .withBean("emails", PayloadListener.class, PayloadListener::new).run(context -> {
                    assertThat(context).hasNotFailed();
                    RecordingFactory factory = context.getBean("slowFactory", RecordingFactory.class);
                    assertThat(factory.created).containsExactly("custom.handle");
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("custom", "via custom factory");
                    await().atMost(BOUND).until(() -> context.getBean(CustomFactoryListener.class).received.size() == 1);
                });
    }

    // ---------------------------------------------------------------- invalid listeners

    @Test
    void methodWithTwoParametersFailsTheContextNamingTheMethod() {
        onTempDir().withBean("twoArgs", TwoParameterListener.class, TwoParameterListener::new).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("twoArgs.handle")
                    .hasMessageContaining("must take the payload or Job<T>");
        });
    }

    @Test
    void nonPositiveConcurrencyFailsTheContextNamingTheMethod() {
        onTempDir().withBean("zero", ZeroConcurrencyListener.class, ZeroConcurrencyListener::new).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("@QueueListener method zero.handle")
                    .hasStackTraceContaining("concurrency '0'");
        });
    }

    @Test
    void nonNumericConcurrencyFailsTheContextNamingTheMethod() {
        onTempDir().withPropertyValues("app.workers=many")
                .withBean("orders", PlaceholderListener.class, PlaceholderListener::new)
                .withPropertyValues("app.queue=orders").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("orders.handle")
                            .hasStackTraceContaining("many");
                });
    }

    @Test
    void heartbeatNotShorterThanTheLeaseFailsTheContextClearly() {
        onTempDir().withPropertyValues("localqueue.delivery.lease=1s", "localqueue.listener.heartbeat-interval=1s")
                .withBean("emails", PayloadListener.class, PayloadListener::new).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("emails.handle")
                            .hasStackTraceContaining("heartbeatInterval");
                });
    }

    @Test
    void heartbeatNotShorterThanAQueuesOwnLeaseFailsTheContext() {
        onTempDir().withPropertyValues("localqueue.queues.emails.delivery.lease=2s",
                        "localqueue.listener.heartbeat-interval=5s")
                .withBean("emails", PayloadListener.class, PayloadListener::new).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("heartbeatInterval")
                            .hasStackTraceContaining("emails");
                });
    }

    // ---------------------------------------------------------------- shutdown

    @Test
    void closingTheContextWaitsForARunningListenerAndItsJobIsAcked() throws Exception {
        onTempDir().withBean("slow", BlockingListener.class, BlockingListener::new).run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("slow", "in progress");
            BlockingListener listener = context.getBean(BlockingListener.class);
            assertThat(listener.started.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            QueueListenerContainer container = context.getBean(QueueListenerEndpointRegistry.class)
                    .getListenerContainer("slow.handle");

            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close, runnable -> {
                Thread thread = new Thread(runnable, "closer");
                thread.setDaemon(true);
                thread.start();
            });
            await().atMost(BOUND).until(() -> !container.isRunning());
            assertThat(closing).isNotDone();
            assertThat(listener.finished).isFalse();
            listener.release.countDown();

            closing.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(listener.finished).isTrue();
        });

        try (SimpleQueue<Object> reopened = SimpleQueue.builder(dir).name("slow").build()) {
            assertThat(reopened.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        }
    }

    @Test
    void shutdownTimeoutHandsAnInterruptedJobBackWithoutSpendingADelivery() throws Exception {
        BlockingListener stuck = new BlockingListener();
        onTempDir().withPropertyValues("localqueue.listener.shutdown-timeout=100ms",
                        "localqueue.queues.slow.delivery.lease=10m")
                .withBean("slow", BlockingListener.class, () -> stuck).run(context -> {
                    context.getBean(LocalQueueTemplate.class).put("slow", "stuck");
                    assertThat(stuck.started.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
                });
        try {
            try (SimpleQueue<Object> reopened = SimpleQueue.builder(dir).name("slow").build()) {
                assertThat(reopened.stats()).as("ready again at once, not after its 10 minute lease")
                        .isEqualTo(new QueueStats(1, 0, 0, 0));
            }

            onTempDir().withPropertyValues("localqueue.queues.slow.delivery.lease=10m")
                    .withBean("slow", RecordingJobListener.class, RecordingJobListener::new).run(context -> {
                        LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                        await().atMost(BOUND).until(() -> template.stats("slow").equals(new QueueStats(0, 0, 1, 0)));
                        RecordingJobListener listener = context.getBean(RecordingJobListener.class);
                        assertThat(listener.deliveries).extracting(Job::attempts)
                                .as("the interrupted delivery is not counted").containsExactly(0);
                    });
        } finally {
            stuck.release.countDown();
        }
    }

    @Test
    void lifecycleFlagFollowsTheContext() {
        AtomicBoolean runningInside = new AtomicBoolean();
        QueueListenerEndpointRegistry[] registry = new QueueListenerEndpointRegistry[1];
        onTempDir().withBean("emails", PayloadListener.class, PayloadListener::new).run(context -> {
            registry[0] = context.getBean(QueueListenerEndpointRegistry.class);
            runningInside.set(registry[0].isRunning());
        });
        assertThat(runningInside).isTrue();
        assertThat(registry[0].isRunning()).isFalse();
        assertThat(registry[0].getListenerContainer("emails.handle").isRunning()).isFalse();
    }

    // ---------------------------------------------------------------- listeners

    private static LocalQueueRegistry registry(AssertableApplicationContext context) {
        return context.getBean(LocalQueueRegistry.class);
    }

    record Email(String to, String subject) {
    }

    static class InvalidAddress extends IllegalArgumentException {
        InvalidAddress(String message) {
            super(message);
        }
    }

    static class BadRecipient extends InvalidAddress {
        BadRecipient(String message) {
            super(message);
        }
    }

    static class PayloadListener {
        final List<Email> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "emails")
        void handle(Email email) {
            received.add(email);
        }
    }

    static class JobListener {
        final List<Job<Email>> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "jobs")
        void handle(Job<Email> job) {
            received.add(job);
        }
    }

    static class PlaceholderListener {
        final CountDownLatch bothStarted = new CountDownLatch(2);
        final CountDownLatch release = new CountDownLatch(1);

        @QueueListener(queue = "${app.queue}", concurrency = "${app.workers}")
        void handle(String order) throws InterruptedException {
            bothStarted.countDown();
            release.await(10, TimeUnit.SECONDS);
        }
    }

    static class NamedListener {
        @QueueListener(queue = "billing", id = "${app.listener-id}")
        void handle(String invoice) {
        }
    }

    static class ManualListener {
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "manual", autoStartup = "false")
        void handle(String message) {
            received.add(message);
            threads.add(Thread.currentThread().getName());
        }
    }

    static class ManualStrictListener {
        @QueueListener(queue = "manual-strict", autoStartup = "false", permanentErrors = InvalidAddress.class)
        void handle(Email email) {
            throw new BadRecipient(email.to());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ManualRegistryConfig {
        @Bean
        static BeanPostProcessor noListenerAutoStartup() {
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

    static class EagerListener {
        @QueueListener(queue = "eager", autoStartup = "true")
        void handle(String message) {
        }
    }

    static class StrictListener {
        final AtomicInteger calls = new AtomicInteger();

        @QueueListener(queue = "strict", permanentErrors = InvalidAddress.class)
        void handle(Email email) {
            calls.incrementAndGet();
            throw new BadRecipient(email.to());
        }
    }

    static class AlwaysFailingListener {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "flaky", permanentErrors = InvalidAddress.class)
        void handle(Job<String> job) {
            attempts.add(job.attempts());
            throw new IllegalStateException("downstream unavailable");
        }
    }

    static class FailsOnceListener {
        final List<Job<String>> deliveries = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "once")
        void handle(Job<String> job) {
            deliveries.add(job);
            if (job.attempts() == 0) {
                throw new IllegalStateException("first delivery fails");
            }
        }
    }

    static class DeadLetterAlerts {
        final List<JobDeadLetteredEvent> received = new CopyOnWriteArrayList<>();

        @org.springframework.context.event.EventListener
        void on(JobDeadLetteredEvent event) {
            received.add(event);
        }
    }

    static class RecordingObserver implements WorkerObserver {
        final List<JobOutcome> finished = new CopyOnWriteArrayList<>();
        final List<String> expired = new CopyOnWriteArrayList<>();

        @Override
        public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, Throwable error) {
            finished.add(outcome);
        }

        @Override
        public void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
            expired.add(queueName);
        }
    }

    static class RecordingJobListener {
        final List<Job<String>> deliveries = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "slow")
        void handle(Job<String> job) {
            deliveries.add(job);
        }
    }

    static class BlockingListener {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean finished;

        @QueueListener(queue = "slow")
        void handle(String message) throws InterruptedException {
            started.countDown();
            release.await();
            finished = true;
        }
    }

    static class CustomFactoryListener {
        final List<String> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "custom", containerFactory = "slowFactory")
        void handle(String message) {
            received.add(message);
        }
    }

    static class TwoParameterListener {
        @QueueListener(queue = "two")
        void handle(String message, String extra) {
        }
    }

    static class ZeroConcurrencyListener {
        @QueueListener(queue = "zero", concurrency = "0")
        void handle(String message) {
        }
    }

    static class RecordingFactory extends DefaultQueueListenerContainerFactory {
        final List<String> created = new CopyOnWriteArrayList<>();

        RecordingFactory(LocalQueueRegistry queues, Duration pollInterval) {
            super(queues);
            setPollInterval(pollInterval);
        }

        @Override
        public QueueListenerContainer createContainer(QueueListenerEndpoint endpoint) {
            created.add(endpoint.id());
            return super.createContainer(endpoint);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomFactoryConfig {
        @Bean
        RecordingFactory slowFactory(LocalQueueRegistry queues) {
            return new RecordingFactory(queues, Duration.ofMillis(200));
        }
    }
}
