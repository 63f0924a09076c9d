package io.localqueue.spring.observation.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.EventContext;
import io.localqueue.bus.RetryException;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueObservationAutoConfiguration;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.CorrelationIdFormatter;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryEventPublisherBeansApplicationListener;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Traces across the event bus with Spring Boot's own tracing over OpenTelemetry (W3C propagation): the first
 * delivery's span is a child of the span that dispatched the event and shares its trace, so the handler's log lines
 * carry that trace's id; a redelivery's span starts a trace of its own linked (not parented) to it; the events a
 * handler returns stay in the dispatcher's trace; baggage travels with the delivery.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventBusTracingTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String HANDLER_LOG = "io.localqueue.test.welcomer";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final List<ILoggingEvent> logged = new CopyOnWriteArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            event.prepareForDeferredProcessing();
            logged.add(event);
        }
    };

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    @BusEvent(name = "user.welcomed")
    record UserWelcomed(String userId) {
    }

    EventBusTracingTest() {
        super(ObservationAutoConfiguration.class, OpenTelemetrySdkAutoConfiguration.class,
                OpenTelemetryTracingAutoConfiguration.class, MicrometerTracingAutoConfiguration.class,
                LocalQueueAutoConfiguration.class, LocalQueueObservationAutoConfiguration.class);
    }

    /** What a Spring Boot application does when it starts: tracing events then reach the MDC. */
    @BeforeAll
    static void publishTracingEventsToTheContextsListeners() {
        OpenTelemetryEventPublisherBeansApplicationListener.addWrapper();
    }

    @BeforeEach
    void captureTheHandlersLog() {
        appender.start();
        ((Logger) LoggerFactory.getLogger(HANDLER_LOG)).addAppender(appender);
    }

    @AfterEach
    void releaseTheHandlersLog() {
        ((Logger) LoggerFactory.getLogger(HANDLER_LOG)).detachAppender(appender);
        appender.stop();
    }

    private ApplicationContextRunner traced() {
        return onTempDir().withBean(SpanProcessor.class, () -> SimpleSpanProcessor.create(spans))
                .withInitializer(context -> context.addApplicationListener(
                        new OpenTelemetryEventPublisherBeansApplicationListener()))
                .withPropertyValues("management.tracing.sampling.probability=1.0",
                        "management.tracing.baggage.remote-fields=tenant", "localqueue.bus.observation-enabled=true")
                .withBean("welcomer", FailsOnceHandler.class);
    }

    @Test
    void theFirstDeliverysSpanIsAChildOfTheDispatchSpanAndSharesItsTrace() {
        traced().run(context -> {
            Span request = dispatchInsideARequest(context.getBean(Tracer.class), context.getBean(EventBus.class));

            SpanData first = awaitSpans("process user.created", 2).get(0);
            SpanData send = span("send user.created");
            assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(send.getTraceId()).isEqualTo(request.context().traceId());
            assertThat(send.getParentSpanId()).isEqualTo(request.context().spanId());
            assertThat(first.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(first.getTraceId()).isEqualTo(send.getTraceId());
            assertThat(first.getParentSpanId()).isEqualTo(send.getSpanId());
            assertThat(first.getLinks()).isEmpty();
            assertThat(first.getAttributes().asMap()).extractingFromEntries(entry -> entry.getKey().getKey())
                    .contains("bus", "subscription", "event", "handler.id", "outcome", "event.id",
                            "delivery.attempt");
        });
    }

    @Test
    void aRedeliverysSpanStartsATraceOfItsOwnLinkedToTheDispatchSpan() {
        traced().run(context -> {
            dispatchInsideARequest(context.getBean(Tracer.class), context.getBean(EventBus.class));

            SpanData retry = awaitSpans("process user.created", 2).get(1);
            SpanData send = span("send user.created");
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
    void theHandlersLogLinesCarryTheTraceOfTheirDelivery() {
        traced().run(context -> {
            dispatchInsideARequest(context.getBean(Tracer.class), context.getBean(EventBus.class));

            List<SpanData> deliveries = awaitSpans("process user.created", 2);
            SpanData send = span("send user.created");
            assertThat(logged).hasSize(2);
            ILoggingEvent first = logged.get(0);
            assertThat(first.getMDCPropertyMap()).containsEntry("traceId", send.getTraceId())
                    .containsEntry("spanId", deliveries.get(0).getSpanId());
            assertThat(CorrelationIdFormatter.DEFAULT.format(first.getMDCPropertyMap()::get))
                    .isEqualTo("[" + send.getTraceId() + "-" + deliveries.get(0).getSpanId() + "] ");
            assertThat(logged.get(1).getMDCPropertyMap()).as("a retry logs in its own trace")
                    .containsEntry("traceId", deliveries.get(1).getTraceId());
        });
    }

    @Test
    void theEventsAHandlerReturnsStayInTheDispatchersTrace() {
        traced().withBean("announcer", Announcer.class).run(context -> {
            dispatchInsideARequest(context.getBean(Tracer.class), context.getBean(EventBus.class));

            SpanData welcomed = awaitSpans("process user.welcomed", 1).get(0);
            SpanData announced = awaitSpans("process announcer", 1).get(0);
            SpanData send = span("send user.created");
            assertThat(spans.getFinishedSpanItems()).extracting(SpanData::getName).filteredOn(name ->
                    name.startsWith("send")).as("what a handler returns is no dispatch of its own")
                    .containsExactly("send user.created");
            assertThat(announced.getParentSpanId()).isEqualTo(send.getSpanId());
            assertThat(welcomed.getTraceId()).isEqualTo(send.getTraceId());
            assertThat(welcomed.getParentSpanId()).isEqualTo(send.getSpanId());
        });
    }

    @Test
    void baggageTravelsWithTheDeliveryToEveryDelivery() {
        traced().run(context -> {
            Tracer tracer = context.getBean(Tracer.class);
            try (BaggageInScope tenant = tracer.createBaggageInScope("tenant", "acme")) {
                dispatchInsideARequest(tracer, context.getBean(EventBus.class));
            }

            awaitSpans("process user.created", 2);
            FailsOnceHandler handler = context.getBean(FailsOnceHandler.class);
            assertThat(handler.tenants).containsExactly("acme", "acme");
            assertThat(handler.deliveries.get(0).headers()).containsKeys("traceparent", "baggage");
            assertThat(handler.deliveries.get(0).headers().get("traceparent"))
                    .contains(span("send user.created").getSpanId());
        });
    }

    @Test
    void otherReceiversKeepMicrometerTracingsOwnHandler() {
        traced().run(context -> assertThat(context).hasSingleBean(BusHandlerTracingObservationHandler.class)
                .hasSingleBean(PropagatingReceiverTracingObservationHandler.class)
                .doesNotHaveBean(QueueListenerTracingObservationHandler.class));
    }

    /** Dispatches one event while a span of the caller (a web request, say) is current, and returns that span. */
    private static Span dispatchInsideARequest(Tracer tracer, EventBus bus) {
        Span request = tracer.nextSpan().name("request").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
            bus.dispatch(new UserCreated("u-1"));
        } finally {
            request.end();
        }
        return request;
    }

    /** Waits for {@code count} spans of a name and returns them in the order they started. */
    private List<SpanData> awaitSpans(String name, int count) {
        await().atMost(BOUND).until(() -> spansNamed(name).size() == count);
        return spansNamed(name);
    }

    private List<SpanData> spansNamed(String name) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    private SpanData span(String name) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span named " + name + " in " + spans.getFinishedSpanItems()));
    }

    /** Logs each delivery, records its baggage, and fails the first one. */
    static class FailsOnceHandler {
        private static final org.slf4j.Logger log = LoggerFactory.getLogger(HANDLER_LOG);

        final List<EventContext> deliveries = new CopyOnWriteArrayList<>();
        final List<String> tenants = new CopyOnWriteArrayList<>();
        private final Tracer tracer;

        FailsOnceHandler(Tracer tracer) {
            this.tracer = tracer;
        }

        @EventHandler
        void welcome(UserCreated event, EventContext context) {
            deliveries.add(context);
            Baggage tenant = tracer.getBaggage("tenant");
            tenants.add(tenant == null ? "none" : String.valueOf(tenant.get()));
            log.info("Welcoming {} (attempt {})", event.userId(), context.attempt());
            if (context.attempt() == 1) {
                throw new RetryException("first delivery fails", Duration.ZERO);
            }
        }
    }

    /** Announces each user created with an event of its own, handled in turn. */
    static class Announcer {
        @EventHandler(subscription = "announcer")
        UserWelcomed announce(UserCreated event) {
            return new UserWelcomed(event.userId());
        }

        @EventHandler
        void welcomed(UserWelcomed event) {
        }
    }
}
