package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.Job;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalQueueTemplateTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void aPutOnAFullQueueGivesUpWithQueueFullExceptionInsteadOfWaitingForever() {
        fullQueue("localqueue.producer.max-wait=200ms").run(context -> {
            LocalQueueTemplate template = filled(context);

            CompletableFuture<Long> put = inThread(() -> template.put("small", "third"));

            assertThatThrownBy(() -> put.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(QueueFullException.class)
                    .hasMessageContaining("small");
        });
    }

    @Test
    void aPutWithADelayIsStoredNowAndClaimedOnlyOnceDueWithTheInterceptorsHeaders() {
        onTempDir().run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            SimpleQueue<Object> queue = context.getBean(LocalQueueRegistry.class).queue("later");
            template.setEnqueueInterceptor(new EnqueueInterceptor() {
                @Override
                public <R> R intercept(String name, List<EnqueueItem<Object>> items,
                                       Function<List<EnqueueItem<Object>>, R> write) {
                    return write.apply(items.stream().map(item -> item.withHeaders(Map.of("tenant", "acme"))).toList());
                }
            });

            long delayed = template.put("later", "tomorrow", null, EnqueueOptions.defaults().delay(Duration.ofHours(1)));
            long due = template.put("later", "now", null, EnqueueOptions.defaults().runAt(Instant.now().minusSeconds(5)));

            assertThat(queue.stats().ready()).isEqualTo(2);
            Job<Object> job = queue.getNowait();
            assertThat(job.id()).isEqualTo(due);
            assertThat(job.headers()).containsEntry("tenant", "acme");
            queue.ack(job);
            assertThatThrownBy(queue::getNowait).as("job %d is due in an hour", delayed)
                    .isInstanceOf(QueueEmptyException.class);
            assertThatThrownBy(() -> template.put("later", "x", null, (EnqueueOptions) null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("options");
        });
    }

    @Test
    void producersWaitFiveSecondsUnlessConfigured() {
        onTempDir().withPropertyValues("localqueue.queues.now.producer.max-wait=0s").run(context -> {
            QueueSettings settings = context.getBean(QueueSettings.class);
            assertThat(LocalQueueTemplate.DEFAULT_MAX_WAIT).isEqualTo(Duration.ofSeconds(5));
            assertThat(settings.producerMaxWaitFor("anything")).isEqualTo(LocalQueueTemplate.DEFAULT_MAX_WAIT);
            assertThat(settings.producerMaxWaitFor("now")).isZero();
            assertThat(context.getBean(LocalQueueProperties.class).getProducer().getMaxWait())
                    .isEqualTo(LocalQueueTemplate.DEFAULT_MAX_WAIT);
        });
    }

    @Test
    void aQueuesOwnWaitOverridesTheDefaultAndZeroMakesOneAttempt() {
        fullQueue("localqueue.producer.max-wait=10m", "localqueue.queues.small.producer.max-wait=0s").run(context -> {
            LocalQueueTemplate template = filled(context);

            assertThatThrownBy(() -> template.put("small", "third")).isInstanceOf(QueueFullException.class);
            assertThatThrownBy(() -> template.put("small", "third", "key-3")).isInstanceOf(QueueFullException.class);
            assertThat(context.getBean(QueueSettings.class).maxPendingJobsFor("small")).hasValue(2);
        });
    }

    @Test
    void batchesWaitTheQueuesWaitToo() {
        fullQueue("localqueue.queues.small.producer.max-wait=0s").run(context -> {
            LocalQueueTemplate template = filled(context);

            assertThatThrownBy(() -> template.putAll("small", List.of("a")))
                    .isInstanceOf(QueueFullException.class);
            assertThatThrownBy(() -> template.putMany("small", List.of(EnqueueItem.of("b"))))
                    .isInstanceOf(QueueFullException.class);
        });
    }

    @Test
    void aNullPayloadIsRefusedByNameInsideATransactionOrNot() {
        onTempDir().run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);

            assertThatThrownBy(() -> template.put("nulls", null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("payload must not be null");
            assertThat(template.stats("nulls").ready()).isZero();
        });
    }

    @Test
    void putManyKeepsTheHeadersOfItsItems() {
        onTempDir().run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);

            template.putMany("tagged", List.of(EnqueueItem.of("a").withHeaders(Map.of("tenant", "acme")),
                    EnqueueItem.of("b")));

            SimpleQueue<Object> queue = context.getBean(LocalQueueRegistry.class).queue("tagged");
            assertThat(List.of(queue.getNowait(), queue.getNowait())).extracting(Job::headers)
                    .containsExactly(Map.of("tenant", "acme"), Map.of());
        });
    }

    @Test
    void interceptorBeansRunAroundEveryWriteInOrder() {
        List<String> calls = new CopyOnWriteArrayList<>();
        onTempDir().withBean("first", EnqueueInterceptor.class, () -> recording("first", calls))
                .withBean("second", EnqueueInterceptor.class, () -> recording("second", calls)).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);

                    long id = template.put("intercepted", "a", "job-a");
                    template.putMany("intercepted", List.of(EnqueueItem.of("b")));
                    template.putAll("intercepted", List.of("c", "d"));

                    template.immediate().put("intercepted", "e");

                    assertThat(calls).containsExactly("first intercepted 1", "second intercepted 1",
                            "first intercepted 1", "second intercepted 1", "first intercepted 2",
                            "second intercepted 2", "first intercepted 1", "second intercepted 1");
                    assertThat(template.put("intercepted", "again", "job-a")).isEqualTo(id);
                });
    }

    private static EnqueueInterceptor recording(String name, List<String> calls) {
        return new EnqueueInterceptor() {
            @Override
            public <R> R intercept(String queue, List<EnqueueItem<Object>> items,
                                   Function<List<EnqueueItem<Object>>, R> write) {
                calls.add(name + " " + queue + " " + items.size());
                return write.apply(items);
            }
        };
    }

    @Test
    void aWaitingPutTakesTheRoomAJobLeaves() {
        fullQueue("localqueue.producer.max-wait=10m").run(context -> {
            LocalQueueTemplate template = filled(context);
            CompletableFuture<Long> put = inThread(() -> template.put("small", "third"));

            SimpleQueue<Object> queue = context.getBean(LocalQueueRegistry.class).queue("small");
            Job<Object> job = queue.getNowait();
            queue.ack(job);

            assertThat(put.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isPositive();
            assertThat(template.stats("small").ready()).isEqualTo(2);
        });
    }

    @Test
    void aPutWaitingWhenTheContextClosesIsReleasedWithQueueClosedException() throws Exception {
        Thread[] producer = new Thread[1];
        CompletableFuture<Long> put = new CompletableFuture<>();
        fullQueue("localqueue.producer.max-wait=10m").run(context -> {
            LocalQueueTemplate template = filled(context);
            producer[0] = new Thread(() -> {
                try {
                    put.complete(template.put("small", "third"));
                } catch (RuntimeException failure) {
                    put.completeExceptionally(failure);
                }
            }, "blocked-producer");
            producer[0].setDaemon(true);
            producer[0].start();
            await().atMost(BOUND).until(() -> producer[0].getState() == Thread.State.TIMED_WAITING
                    || producer[0].getState() == Thread.State.WAITING);
            assertThat(put).isNotDone();
        });

        assertThatThrownBy(() -> put.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(QueueClosedException.class);
    }

    @Test
    void aNegativeWaitFailsTheStartNamingTheProperty() {
        assertRefused("localqueue.producer.max-wait", "-1s");
        assertRefused("localqueue.queues.small.producer.max-wait", "-1s");
    }

    @Test
    void badQueueValuesFailTheStartNamingTheProperty() {
        assertRefused("localqueue.delivery.lease", "0s");
        assertRefused("localqueue.delivery.max-retries", "-1");
        assertRefused("localqueue.queues.small.delivery.lease", "0s");
        assertRefused("localqueue.queues.small.delivery.max-retries", "-1");
        assertRefused("localqueue.queues.small.max-pending-jobs", "0");
    }

    @Test
    void aDottedQueueNameNeedsBracketsAndWithoutThemTheStartFailsNamingTheProperty() {
        onTempDir().withPropertyValues("localqueue.queues.email.outbound.max-pending-jobs=2").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("localqueue.queues.email.outbound.max-pending-jobs");
        });
        onTempDir().withPropertyValues("localqueue.queues.[email.outbound].max-pending-jobs=2").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(QueueSettings.class).maxPendingJobsFor("email.outbound")).hasValue(2);
        });
    }

    @Test
    void aMistypedPropertyFailsTheStartInsteadOfBeingIgnored() {
        onTempDir().withPropertyValues("localqueue.delivery.leese=5s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("localqueue.delivery.leese");
        });
    }

    @Test
    void badBackoffValuesFailTheStartNamingTheProperty() {
        assertRefused("localqueue.delivery.backoff.initial-delay", "-1s");
        assertRefused("localqueue.delivery.backoff.multiplier", "0.5");
        assertRefused("localqueue.delivery.backoff.max-delay", "100ms");
        assertRefused("localqueue.queues.small.delivery.backoff.multiplier", "NaN");
        assertRefused("localqueue.queues.small.delivery.backoff.max-delay", "10ms");
    }

    private void assertRefused(String property, String value) {
        onTempDir().withPropertyValues(property + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .satisfies(refused -> assertThat(((InvalidConfigurationPropertyValueException) refused).getName())
                            .isEqualTo(property));
        });
    }

    /** A context whose queue "small" has room for two jobs. */
    private ApplicationContextRunner fullQueue(String... properties) {
        return onTempDir().withPropertyValues("localqueue.queues.small.max-pending-jobs=2")
                .withPropertyValues(properties);
    }

    /** Fills queue "small" to its limit and returns the template. */
    private static LocalQueueTemplate filled(ApplicationContext context) {
        LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
        template.put("small", "first");
        template.put("small", "second");
        return template;
    }

    private static <T> CompletableFuture<T> inThread(Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(task.get());
            } catch (RuntimeException failure) {
                result.completeExceptionally(failure);
            }
        }, "producer");
        thread.setDaemon(true);
        thread.start();
        return result;
    }
}
