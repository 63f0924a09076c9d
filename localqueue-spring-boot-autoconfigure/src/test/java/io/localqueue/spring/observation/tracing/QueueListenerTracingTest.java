package io.localqueue.spring.observation.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.Job;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueObservationAutoConfiguration;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.micrometer.tracing.Baggage;
import io.micrometer.tracing.BaggageInScope;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Traces across a queue with Spring Boot's own tracing over OpenTelemetry (W3C propagation): the first delivery's
 * span is a child of the span that put the job, a redelivery's span starts a trace of its own linked (not parented)
 * to it, and baggage travels with the job.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueueListenerTracingTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();

    QueueListenerTracingTest() {
        super(ObservationAutoConfiguration.class, OpenTelemetrySdkAutoConfiguration.class,
                OpenTelemetryTracingAutoConfiguration.class, MicrometerTracingAutoConfiguration.class,
                LocalQueueAutoConfiguration.class, LocalQueueObservationAutoConfiguration.class);
    }

    private ApplicationContextRunner traced() {
        return onTempDir().withBean(SpanProcessor.class, () -> SimpleSpanProcessor.create(spans))
                .withPropertyValues("management.tracing.sampling.probability=1.0",
                        "management.tracing.baggage.remote-fields=tenant",
                        "localqueue.listener.observation-enabled=true", "localqueue.template.observation-enabled=true",
                        "localqueue.delivery.backoff.initial-delay=0s")
                .withBean("emails", FailsOnceListener.class);
    }

    @Test
    void theFirstDeliverysSpanIsAChildOfTheSpanThatPutTheJob() {
        traced().run(context -> {
            Span request = putInsideARequest(context.getBean(Tracer.class), context.getBean(LocalQueueTemplate.class));

            List<SpanData> deliveries = awaitDeliveries(2);
            SpanData send = span("send emails");
            assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(send.getTraceId()).isEqualTo(request.context().traceId());
            assertThat(send.getParentSpanId()).isEqualTo(request.context().spanId());
            SpanData first = deliveries.get(0);
            assertThat(first.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(first.getTraceId()).isEqualTo(send.getTraceId());
            assertThat(first.getParentSpanId()).isEqualTo(send.getSpanId());
            assertThat(first.getLinks()).isEmpty();
            assertThat(first.getAttributes().asMap()).extractingFromEntries(entry -> entry.getKey().getKey())
                    .contains("queue", "listener.id", "outcome", "job.id", "job.attempts");
        });
    }

    @Test
    void aRedeliverysSpanStartsATraceOfItsOwnLinkedToTheSpanThatPutTheJob() {
        traced().run(context -> {
            putInsideARequest(context.getBean(Tracer.class), context.getBean(LocalQueueTemplate.class));

            SpanData retry = awaitDeliveries(2).get(1);
            SpanData send = span("send emails");
            assertThat(retry.getTraceId()).isNotEqualTo(send.getTraceId());
            assertThat(retry.getParentSpanContext().isValid()).as("a retry has no parent").isFalse();
            assertThat(retry.getLinks()).extracting(LinkData::getSpanContext).singleElement().satisfies(link -> {
                assertThat(link.getTraceId()).isEqualTo(send.getTraceId());
                assertThat(link.getSpanId()).isEqualTo(send.getSpanId());
                assertThat(link.isSampled()).isTrue();
            });
        });
    }

    @Test
    void baggageAndTheTraceContextTravelWithTheJobToEveryDelivery() {
        traced().run(context -> {
            Tracer tracer = context.getBean(Tracer.class);
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            BaggageInScope tenant = tracer.createBaggageInScope("tenant", "acme");
            try {
                putInsideARequest(tracer, template);
            } finally {
                tenant.close();
            }

            awaitDeliveries(2);
            FailsOnceListener listener = context.getBean(FailsOnceListener.class);
            assertThat(listener.tenants).containsExactly("acme", "acme");
            assertThat(listener.jobs.get(0).headers()).containsKeys("traceparent", "baggage");
            assertThat(listener.jobs.get(0).headers().get("traceparent")).contains(span("send emails").getSpanId());
        });
    }

    @Test
    void aJobDeferredToItsTransactionsCommitCarriesTheTraceOfTheCallThatPutIt() {
        traced().run(context -> {
            Tracer tracer = context.getBean(Tracer.class);
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:shop-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(h2));

            Span request = tracer.nextSpan().name("request").start();
            Tracer.SpanInScope scope = tracer.withSpan(request);
            try {
                transaction.executeWithoutResult(status -> assertThat(template.enqueue("emails", "after commit")
                        .isDeferred()).isTrue());
            } finally {
                scope.close();
                request.end();
            }

            SpanData first = awaitDeliveries(2).get(0);
            SpanData send = span("send emails");
            assertThat(send.getParentSpanId()).isEqualTo(request.context().spanId());
            assertThat(first.getParentSpanId()).isEqualTo(send.getSpanId());
        });
    }

    @Test
    void otherReceiversKeepMicrometerTracingsOwnHandler() {
        traced().run(context -> assertThat(context).hasSingleBean(QueueListenerTracingObservationHandler.class)
                .hasSingleBean(PropagatingReceiverTracingObservationHandler.class));
    }

    @Test
    void bootsObservationFilterTurnsThemOffAgain() {
        traced().withPropertyValues("management.observations.enable.localqueue=false").run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            putInsideARequest(context.getBean(Tracer.class), template);

            await().atMost(BOUND).until(() -> template.stats("emails").acked() == 1);
            assertThat(spans.getFinishedSpanItems()).extracting(SpanData::getName).containsExactly("request");
            assertThat(context.getBean(FailsOnceListener.class).jobs).allSatisfy(job -> assertThat(job.headers())
                    .as("no trace context without the template's observation").isEmpty());
        });
    }

    @Test
    void aBatchsSpanHasNoParentAndLinksToTheSpanThatPutEachOfItsJobs() {
        traced().withBean("batches", BatchListener.class, BatchListener::new).run(context -> {
            QueueListenerEndpointRegistry listeners = context.getBean(QueueListenerEndpointRegistry.class);
            listeners.getListenerContainer("batches").pause();
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            Tracer tracer = context.getBean(Tracer.class);
            for (int i = 0; i < 2; i++) {
                Span request = tracer.nextSpan().name("request").start();
                try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
                    template.put("batches", "job " + i);
                } finally {
                    request.end();
                }
            }
            listeners.getListenerContainer("batches").resume();

            await().atMost(BOUND).until(() -> template.stats("batches").acked() == 2);
            await().atMost(BOUND).until(() -> spans.getFinishedSpanItems().stream()
                    .anyMatch(span -> span.getName().equals("process batches")));
            SpanData batch = span("process batches");
            List<SpanData> sends = spans.getFinishedSpanItems().stream()
                    .filter(span -> span.getName().equals("send batches")).toList();
            assertThat(batch.getParentSpanContext().isValid()).as("a batch has no parent").isFalse();
            assertThat(batch.getLinks()).extracting(link -> link.getSpanContext().getSpanId())
                    .containsExactlyInAnyOrderElementsOf(sends.stream().map(SpanData::getSpanId).toList());
        });
    }

    /** Puts one job while a span of the caller (a web request, say) is current, and returns that span. */
    private static Span putInsideARequest(Tracer tracer, LocalQueueTemplate template) {
        Span request = tracer.nextSpan().name("request").start();
        Tracer.SpanInScope scope = tracer.withSpan(request);
        try {
            template.put("emails", "hello");
        } finally {
            scope.close();
            request.end();
        }
        return request;
    }

    /** Waits for {@code count} listener spans and returns them in the order they started. */
    private List<SpanData> awaitDeliveries(int count) {
        await().atMost(BOUND).until(() -> deliveries().size() == count);
        return deliveries();
    }

    private List<SpanData> deliveries() {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals("process emails"))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    private SpanData span(String name) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span named " + name + " in " + spans.getFinishedSpanItems()));
    }

    static class FailsOnceListener {
        final List<Job<String>> jobs = new CopyOnWriteArrayList<>();
        final List<String> tenants = new CopyOnWriteArrayList<>();
        private final Tracer tracer;

        FailsOnceListener(Tracer tracer) {
            this.tracer = tracer;
        }

        @QueueListener(queue = "emails")
        void handle(Job<String> job) {
            jobs.add(job);
            Baggage tenant = tracer.getBaggage("tenant");
            tenants.add(tenant == null ? "none" : String.valueOf(tenant.get()));
            if (job.attempts() == 0) {
                throw new IllegalStateException("first delivery fails");
            }
        }
    }

    static class BatchListener {
        @QueueListener(queue = "batches", id = "batches", batch = true)
        void handle(List<String> payloads) {
        }
    }
}
