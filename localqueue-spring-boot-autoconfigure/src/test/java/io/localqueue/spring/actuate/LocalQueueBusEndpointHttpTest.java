package io.localqueue.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.ExecutionStoppedException;
import io.localqueue.bus.FailedDelivery;
import io.localqueue.bus.RejectException;
import io.localqueue.bus.SequenceSource;
import io.localqueue.bus.SourceDefinition;
import io.localqueue.bus.Subscription;
import io.localqueue.spring.EventHandler;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

/** The event bus's part of the {@code localqueue} endpoint, of health and of the metrics, over HTTP. */
class LocalQueueBusEndpointHttpTest extends ActuatorAppTestBase {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @BusEvent(name = "invoice.issued")
    record InvoiceIssued(String invoiceId, boolean valid) {
    }

    @BusEvent(name = "refund.issued")
    record RefundIssued(String refundId) {
    }

    @Test
    void subscriptionsAreReportedWithTheirCountsConsumersDeadLettersAndMeters() throws Exception {
        ConfigurableApplicationContext app = start();
        Subscription invoices = dispatchOneGoodOneBad(app);

        JsonNode bus = JSON.readTree(http.get(app, "/actuator/localqueue").body()).path("bus");
        assertThat(bus.path("name").asString()).isEqualTo("default");
        assertThat(bus.path("running").asBoolean()).isTrue();
        assertThat(bus.path("executions").isArray()).isTrue();
        JsonNode reported = bus.path("subscriptions").path("invoices");
        assertThat(reported.path("queue").asString()).isEqualTo("__bus__:default:invoices");
        assertThat(reported.path("routes").path(0).asString()).isEqualTo("invoice.issued");
        assertThat(reported.path("consuming").asBoolean()).isTrue();
        assertThat(reported.path("concurrency").asInt()).isEqualTo(2);
        await().atMost(BOUND).until(() -> JSON.readTree(http.get(app, "/actuator/localqueue/subscriptions/invoices")
                .body()).path("diagnostics").path("failed").asLong() == 1);
        JsonNode one = JSON.readTree(http.get(app, "/actuator/localqueue/subscriptions/invoices").body());
        assertThat(one.path("diagnostics").path("acked").asLong()).isEqualTo(1);
        assertThat(http.get(app, "/actuator/localqueue/subscriptions/nobody").statusCode()).isEqualTo(404);
        JsonNode all = JSON.readTree(http.get(app, "/actuator/localqueue/subscriptions").body());
        assertThat(all.path("name").asString()).isEqualTo("default");
        assertThat(all.path("subscriptions").has("invoices")).isTrue();

        HttpResponse<String> page = http.get(app,
                "/actuator/localqueue/subscriptions/invoices/dead-letters?limit=5");
        assertThat(page.statusCode()).isEqualTo(200);
        JsonNode dead = JSON.readTree(page.body());
        assertThat(dead.path("queue").asString()).isEqualTo("__bus__:default:invoices");
        assertThat(dead.path("total").asLong()).isEqualTo(1);
        assertThat(dead.path("deadLetters").path(0).path("id").asLong())
                .isEqualTo(invoices.listFailed().get(0).id());
        assertThat(dead.path("deadLetters").path(0).path("eventType").asString()).isEqualTo("invoice.issued");
        assertThat(dead.path("deadLetters").path(0).path("reason").asString()).isEqualTo("rejected");
        assertThat(dead.path("deadLetters").path(0).path("payloadPreview").asString()).contains("inv-bad");
        assertThat(http.get(app, "/actuator/localqueue/subscriptions/nobody/dead-letters").statusCode())
                .isEqualTo(404);
        assertThat(http.get(app, "/actuator/localqueue/subscriptions/invoices/other").statusCode()).isEqualTo(404);
        assertThat(http.get(app, "/actuator/localqueue/subscriptions/invoices/dead-letters?limit=0").statusCode())
                .isEqualTo(400);

        JsonNode health = JSON.readTree(http.get(app, "/actuator/health").body()).path("components")
                .path("localqueue").path("details").path("subscriptions").path("invoices");
        assertThat(health.path("failed").asLong()).isEqualTo(1);
        assertThat(health.path("consuming").asBoolean()).isTrue();

        JsonNode processed = JSON.readTree(http.get(app, "/actuator/metrics/localqueue.bus.deliveries.processed"
                + "?tag=subscription:invoices&tag=outcome:dead_lettered").body());
        assertThat(processed.path("measurements").path(0).path("value").asDouble()).isEqualTo(1.0);
        JsonNode failedGauge = JSON.readTree(http.get(app, "/actuator/metrics/localqueue.bus.deliveries"
                + "?tag=subscription:invoices&tag=state:failed").body());
        assertThat(failedGauge.path("measurements").path(0).path("value").asDouble()).isEqualTo(1.0);
    }

    @Test
    void aSubscriptionsDeadLettersAreReplayedOnlyWithWriteAccess() throws Exception {
        ConfigurableApplicationContext readOnly = start();
        Subscription invoices = dispatchOneGoodOneBad(readOnly);
        long id = invoices.listFailed().get(0).id();

        assertThat(http.post(readOnly, "/actuator/localqueue/subscriptions/invoices", "{\"messageId\": " + id + "}")
                .statusCode()).isIn(403, 404, 405);
        assertThat(http.post(readOnly, "/actuator/localqueue/subscriptions/invoices/retry-dead-letters", "{}")
                .statusCode()).isIn(403, 404, 405);
        assertThat(invoices.listFailed()).hasSize(1);
        readOnly.close();

        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");
        Handlers handlers = app.getBean(Handlers.class);
        handlers.acceptEverything = true;
        Subscription reopened = app.getBean(EventBus.class).subscription("invoices");

        HttpResponse<String> replay = http.post(app, "/actuator/localqueue/subscriptions/invoices",
                "{\"messageId\": " + id + "}");
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(replay.body()).path("outcome").asString()).isEqualTo("RETRIED");
        await().atMost(BOUND).until(() -> handlers.accepted.contains("inv-bad"));
        HttpResponse<String> again = http.post(app, "/actuator/localqueue/subscriptions/invoices",
                "{\"messageId\": " + id + "}");
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(again.body()).path("message").asString())
                .isEqualTo("delivery " + id + " is not a dead letter of subscription 'invoices' of bus 'default'");
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/nobody", "{\"messageId\": 1}").statusCode())
                .isEqualTo(404);
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices", "{}").statusCode()).isEqualTo(400);

        handlers.acceptEverything = false;
        EventBus bus = app.getBean(EventBus.class);
        bus.dispatch(new InvoiceIssued("inv-bad-2", false));
        bus.dispatch(new InvoiceIssued("inv-bad-3", false));
        await().atMost(BOUND).until(() -> reopened.listFailed().size() == 2);
        HttpResponse<String> stillRejected = http.post(app,
                "/actuator/localqueue/subscriptions/invoices/retry-dead-letters", "{}");
        assertThat(JSON.readTree(stillRejected.body()).path("affected").asInt())
                .as("each dead letter replayed once, though the handler rejects it again at once").isEqualTo(2);
        assertThat(JSON.readTree(stillRejected.body()).path("queue").asString()).isEqualTo("invoices");
        await().atMost(BOUND).until(() -> reopened.listFailed().size() == 2 && reopened.stats().ready() == 0
                && reopened.stats().processing() == 0);
        handlers.acceptEverything = true;
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices").statusCode())
                .as("a replay without its JSON body").isEqualTo(400);
        HttpResponse<String> all = http.post(app, "/actuator/localqueue/subscriptions/invoices/retry-dead-letters");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(all.body()).path("affected").asInt()).isEqualTo(2);
        await().atMost(BOUND).until(() -> handlers.accepted.containsAll(List.of("inv-bad-2", "inv-bad-3")));
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices/pause", "{}").statusCode())
                .isEqualTo(200);
        assertThat(reopened.isPaused()).as("paused for every process").isTrue();
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices/resume", "{}").statusCode())
                .isEqualTo(200);
        assertThat(reopened.isPaused()).isFalse();
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices/pause-here", "{}").statusCode())
                .isEqualTo(200);
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices/resume-here", "{}").statusCode())
                .isEqualTo(200);
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices/explode", "{}").statusCode())
                .isEqualTo(404);
        HttpResponse<String> purgeWithoutBody = http.post(app, "/actuator/localqueue/subscriptions/invoices/purge");
        assertThat(purgeWithoutBody.statusCode()).as("a purge without its JSON body").isEqualTo(400);
        assertThat(purgeWithoutBody.body()).contains("a purge takes a JSON body");
        List<FailedDelivery> left = reopened.listFailed();
        assertThat(left).isEmpty();
    }

    @Test
    void aCompleteExecutionIsListedAndDeletedOnlyWithWriteAccessAndItsSubscriptionPurged() throws Exception {
        ConfigurableApplicationContext readOnly = start();
        EventBus bus = readOnly.getBean(EventBus.class);
        ExecutionResult result = bus.execute(invoices(bus, 3));
        String path = "/actuator/localqueue/executions/" + result.executionId();

        JsonNode listed = JSON.readTree(http.get(readOnly, "/actuator/localqueue").body()).path("bus")
                .path("storedExecutions");
        assertThat(listed.size()).isEqualTo(1);
        assertThat(listed.path(0).path("executionId").asString()).isEqualTo(result.executionId().toString());
        assertThat(listed.path(0).path("checkpointName").asString()).isEqualTo("invoices");
        assertThat(listed.path(0).path("completedAt").isNull()).isFalse();
        assertThat(http.delete(readOnly, path).statusCode()).isIn(403, 404, 405);
        assertThat(bus.executions()).hasSize(1);
        readOnly.close();

        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");
        EventBus reopened = app.getBean(EventBus.class);
        CompletableFuture<ExecutionResult> waiting = reopened.executeAsync(refunds(reopened));   // nobody handles them
        await().atMost(BOUND).until(() -> reopened.executions().size() == 2);
        String running = "/actuator/localqueue/executions/" + reopened.executions().get(1).executionId();

        HttpResponse<String> refused = http.delete(app, running);
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(JSON.readTree(refused.body()).path("outcome").asString()).isEqualTo("NOT_COMPLETE");
        assertThat(JSON.readTree(refused.body()).path("message").asString()).contains("is not complete");
        HttpResponse<String> kept = http.post(app, "/actuator/localqueue/subscriptions/invoices/purge", "{}");
        assertThat(JSON.readTree(kept.body()).path("affected").asInt()).as("held by the execution").isZero();

        HttpResponse<String> deleted = http.delete(app, path);
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(deleted.body()).path("deleted").asBoolean()).isTrue();
        assertThat(http.delete(app, path).statusCode()).as("deleted already").isEqualTo(404);
        assertThat(http.delete(app, "/actuator/localqueue/executions/not-an-id").statusCode()).isEqualTo(400);
        assertThat(http.delete(app, "/actuator/localqueue/invoices/" + result.executionId()).statusCode())
                .isEqualTo(404);
        HttpResponse<String> purged = http.post(app, "/actuator/localqueue/subscriptions/invoices/purge", "{}");
        assertThat(purged.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(purged.body()).path("affected").asInt()).isEqualTo(3);
        assertThat(http.post(app, "/actuator/localqueue/subscriptions/invoices/purge", "{\"olderThan\": \"soon\"}")
                .statusCode()).isEqualTo(400);
        assertThat(reopened.executions()).hasSize(1);
        reopened.stop(Duration.ofSeconds(5));
        assertThatThrownBy(() -> waiting.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(ExecutionStoppedException.class);
    }

    // ---------------------------------------------------------------- support

    private Subscription dispatchOneGoodOneBad(ConfigurableApplicationContext app) {
        EventBus bus = app.getBean(EventBus.class);
        bus.dispatch(new InvoiceIssued("inv-good", true));
        bus.dispatch(new InvoiceIssued("inv-bad", false));
        Subscription invoices = bus.subscription("invoices");
        await().atMost(BOUND).until(() -> invoices.stats().acked() == 1 && invoices.stats().failed() == 1);
        return invoices;
    }

    private static SourceDefinition<String> invoices(EventBus bus, int count) {
        List<String> ids = IntStream.rangeClosed(1, count).mapToObj(number -> "inv-" + number).toList();
        return bus.source(SequenceSource.of(ids, "invoices-" + count), "invoices",
                id -> new InvoiceIssued(id, true));
    }

    private static SourceDefinition<String> refunds(EventBus bus) {
        return bus.source(SequenceSource.of(List.of("ref-1"), "refunds-1"), "refunds", RefundIssued::new);
    }

    private ConfigurableApplicationContext start(String... extra) {
        List<String> properties = new ArrayList<>(List.of(extra));
        properties.add("localqueue.actuator.max-age=1ms");
        properties.add("localqueue.bus.topology.refunds=refund.issued");
        return start(App.class, properties.toArray(String[]::new));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class App {
        @Bean
        Handlers handlers() {
            return new Handlers();
        }
    }

    static class Handlers {
        final List<String> accepted = new CopyOnWriteArrayList<>();
        volatile boolean acceptEverything;

        @EventHandler(subscription = "invoices", concurrency = "2")
        void issued(InvoiceIssued invoice) {
            if (!invoice.valid() && !acceptEverything) {
                throw new RejectException("invoice " + invoice.invoiceId() + " has no customer");
            }
            accepted.add(invoice.invoiceId());
        }
    }
}
