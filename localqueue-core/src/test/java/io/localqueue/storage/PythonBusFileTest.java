package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.DispatchReceipt;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.EventContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bus file as the Python library 1.4 writes it: its tables, a delivery it dispatched (the envelope as
 * {@code json.dumps} spells it, the identity key and fingerprint as its hashes give them, from Python 3) and an
 * execution holding it. The Java bus handles that delivery, finds Python's identities, and its emissions join
 * Python's executions.
 */
class PythonBusFileTest {

    private static final long NOW = 1_753_400_100_000L;
    private static final String EVENT_ID = "0b7e6a52-5c1d-4f2e-9a3b-1c2d3e4f5a6b";
    private static final String ENVELOPE = "{\"event_id\": \"" + EVENT_ID + "\", \"correlation_id\": \"" + EVENT_ID
            + "\", \"causation_id\": null, \"event_type\": \"order.placed\", \"event_schema\": \"order.placed@1\", "
            + "\"event_created_at\": \"2025-07-25T00:15:00.250000+00:00\", \"payload\": {\"orderId\": \"order-7\", "
            + "\"amount\": 7}}";
    private static final String KEY =
            "event-identity:v1:25e43ac83dac3b89454b6909d4157145fab912ee374fae5a7330723f785452b6";
    private static final String FINGERPRINT =
            "event-payload:v1:60959ced18005cca49f5dc9e21b458961c91f80a54f56f1e973332039b1df17e";
    private static final String EXECUTION = "6f1c2b9e4d3a4f0b8e7d6c5b4a392817";

    @BusEvent(name = "order.placed", identity = "orderId")
    record OrderPlaced(String orderId, int amount) {
    }

    @BusEvent(name = "order.shipped")
    record OrderShipped(String orderId) {
    }

    @TempDir
    Path directory;

    private long pythonDelivery;

    private Path pythonFile() throws SQLException {
        Path file = directory.resolve("localqueue.db");
        try (Connection connection = PythonLayout.V1_4.create(file)) {
            pythonDelivery = PythonLayout.V1_4.insert(connection, StoredRow.put("__bus__:default:orders", ENVELOPE,
                    NOW).jobId(EVENT_ID).dedup(KEY, FINGERPRINT).build());
            RawSqlite.execute(connection, "INSERT INTO event_bus_executions (execution_id, bus_name, source_name, "
                    + "checkpoint_name, source_completed, created_at, updated_at) VALUES ('" + EXECUTION
                    + "', 'default', 'orders', 'orders:2025-07', 1, " + NOW + ", " + NOW + ")");
            RawSqlite.execute(connection, "INSERT INTO event_bus_execution_deliveries (execution_id, message_id) "
                    + "VALUES ('" + EXECUTION + "', " + pythonDelivery + ")");
        }
        return file;
    }

    @Test
    void aDeliveryPythonDispatchedIsHandledHereWithItsMetadataAndTheLayoutStays() throws SQLException {
        Path file = pythonFile();
        Map<String, String> before = RawSqlite.schema(file);
        List<OrderPlaced> events = new CopyOnWriteArrayList<>();
        List<EventContext> contexts = new CopyOnWriteArrayList<>();
        try (EventBus bus = EventBus.builder(directory)
                .topology(BusTopology.builder().route("orders", OrderPlaced.class).build()).build()) {
            bus.subscription("orders").handler(OrderPlaced.class, (event, context) -> {
                events.add(event);
                contexts.add(context);
                return null;
            });
            bus.start();
            await().atMost(10, TimeUnit.SECONDS).until(() -> bus.subscription("orders").stats().acked() == 1);
        }

        assertThat(events).containsExactly(new OrderPlaced("order-7", 7));
        EventContext context = contexts.get(0);
        assertThat(context.eventId()).isEqualTo(UUID.fromString(EVENT_ID));
        assertThat(context.correlationId()).isEqualTo(UUID.fromString(EVENT_ID));
        assertThat(context.causationId()).isNull();
        assertThat(context.createdAt()).isEqualTo(Instant.parse("2025-07-25T00:15:00.250Z"));
        assertThat(context.attempt()).isEqualTo(1);
        assertThat(RawSqlite.schemaWithoutAdditions(file)).isEqualTo(before);
        assertThat(RawSqlite.schema(file).keySet()).as("only this library's own objects are added")
                .containsExactlyInAnyOrderElementsOf(concat(before.keySet(), RawSqlite.ADDED_SCHEMA_OBJECTS));
    }

    @Test
    void bothLibrariesFindTheSameIdentity() throws SQLException {
        Path file = pythonFile();
        try (EventBus bus = EventBus.builder(directory).topology(BusTopology.builder()
                .route("orders", OrderPlaced.class).route("audit", OrderPlaced.class).build()).build()) {
            DispatchReceipt receipt = bus.dispatch(new OrderPlaced("order-7", 7));

            assertThat(receipt.subscriptions()).containsExactly("audit", "orders");
            assertThat(receipt.inserted()).containsExactly(true, false);
            assertThat(receipt.messageIds().get(1)).isEqualTo(pythonDelivery);
            Map<String, Object> audit = RawSqlite.message(file, receipt.messageIds().get(0));
            assertThat(audit).containsEntry("dedup_key", KEY).containsEntry("dedup_fingerprint", FINGERPRINT)
                    .containsEntry("job_id", receipt.eventId().toString());
            assertThatThrownBy(() -> bus.dispatch(new OrderPlaced("order-7", 8)))
                    .isInstanceOf(DeduplicationConflictException.class);
        }
    }

    @Test
    void aDeliveryEmittedFromAPythonExecutionsDeliveryJoinsThatExecution() throws SQLException {
        Path file = pythonFile();
        try (EventBus bus = EventBus.builder(directory).topology(BusTopology.builder()
                .route("orders", OrderPlaced.class).route("shipping", OrderShipped.class).build()).build()) {
            bus.subscription("orders").handler(OrderPlaced.class,
                    (event, context) -> new OrderShipped(event.orderId()));
            bus.start();
            await().atMost(10, TimeUnit.SECONDS).until(() -> bus.subscription("orders").stats().acked() == 1);
        }

        List<Map<String, Object>> shipped = RawSqlite.query(file,
                "SELECT id FROM messages WHERE queue = '__bus__:default:shipping'");
        assertThat(shipped).hasSize(1);
        Object child = shipped.get(0).get("id");
        assertThat(RawSqlite.query(file, "SELECT parent_message_id, child_message_id FROM event_bus_delivery_edges"))
                .containsExactly(Map.of("parent_message_id", pythonDelivery, "child_message_id", child));
        assertThat(RawSqlite.query(file, "SELECT execution_id FROM event_bus_execution_deliveries WHERE message_id = ?",
                child)).containsExactly(Map.of("execution_id", EXECUTION));
    }

    private static List<String> concat(java.util.Set<String> names, List<String> extra) {
        List<String> all = new java.util.ArrayList<>(names);
        all.addAll(extra);
        return all;
    }
}
