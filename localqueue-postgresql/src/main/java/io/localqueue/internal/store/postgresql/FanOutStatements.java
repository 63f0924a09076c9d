package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.DeliveryMatch;
import io.localqueue.internal.store.StoredHeaders;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Event-bus fan-out on PostgreSQL: the rows of one dispatch (or of one batch of dispatches) in the subscriptions'
 * queues, keyed by event id and durable identity as the Python library's bus keys them, in one
 * {@code INSERT … SELECT FROM unnest} that skips a row whose queue holds its event id or identity already, each new
 * row's headers beside it; and the edges from a handler's delivery to those it emitted, with the executions'
 * membership they inherit. With a pending-job limit, every queue of the fan-out is locked (in name order, so that two
 * fan-outs never wait on each other in a circle) before any is counted.
 */
final class FanOutStatements {

    private static final String INSERT = """
            INSERT INTO %1$s.messages (queue, payload, status, attempts, max_attempts, available_at, job_id, dedup_key,
                                       dedup_fingerprint, created_at, updated_at)
            SELECT rows.queue, rows.payload, 0, 0, rows.max_attempts, ?, rows.job_id, rows.dedup_key,
                   rows.dedup_fingerprint, ?, ?
              FROM unnest(?::text[], ?::bytea[], ?::integer[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY
                   AS rows (queue, payload, max_attempts, job_id, dedup_key, dedup_fingerprint, position)
             ORDER BY rows.position
            ON CONFLICT DO NOTHING
            RETURNING id, queue, job_id""";

    private static final String FIND_BY_EVENT_ID =
            "SELECT id, dedup_key, dedup_fingerprint FROM %1$s.messages WHERE queue = ? AND job_id = ?";

    private static final String FIND_BY_IDENTITY =
            "SELECT id, dedup_fingerprint FROM %1$s.messages WHERE queue = ? AND dedup_key = ?";

    /** Whether a queue holds a row with the event id or identity key already. */
    private static final String HOLDS_EVENT = """
            SELECT EXISTS (SELECT 1 FROM %1$s.messages WHERE queue = ? AND job_id = ?)
                OR EXISTS (SELECT 1 FROM %1$s.messages WHERE queue = ? AND dedup_key = ?)""";

    private static final String INSERT_EDGES = """
            INSERT INTO %1$s.event_bus_delivery_edges (parent_message_id, child_message_id)
            SELECT ?, child FROM unnest(?::bigint[]) AS child
            ON CONFLICT DO NOTHING""";

    /** The executions holding the parent come to hold the children and everything they emitted, transitively. */
    private static final String INHERIT_MEMBERSHIP = """
            WITH RECURSIVE descendants (id) AS (
                SELECT unnest(?::bigint[])
                UNION
                SELECT e.child_message_id FROM %1$s.event_bus_delivery_edges AS e
                  JOIN descendants AS d ON e.parent_message_id = d.id)
            INSERT INTO %1$s.event_bus_execution_deliveries (execution_id, message_id)
            SELECT m.execution_id, d.id FROM %1$s.event_bus_execution_deliveries AS m, descendants AS d
             WHERE m.message_id = ?
            ON CONFLICT DO NOTHING""";

    private FanOutStatements() {
    }

    static Delivered deliver(Connection connection, String schema, List<Delivery> deliveries, long now, long limit)
            throws SQLException {
        if (limit > 0) {
            Delivered full = checkRoom(connection, schema, deliveries, limit);
            if (full != null) {
                return full;
            }
        }
        Map<String, Long> insertedIds = insertAll(connection, schema, deliveries, now);
        Delivered delivered = DeliveryMatch.assemble(deliveries, insertedIds,
                delivery -> existing(connection, schema, delivery));
        if (delivered.written()) {
            insertHeaders(connection, schema, deliveries, delivered);
        }
        return delivered;
    }

    /** Stores the headers of the new rows of a fan-out; a row that stood for a delivery keeps its own. */
    private static void insertHeaders(Connection connection, String schema, List<Delivery> deliveries,
                                      Delivered delivered) throws SQLException {
        Map<Long, Map<String, String>> headers = delivered.newRowHeaders(deliveries);
        EnqueueStatements.insertHeaders(connection, schema, List.copyOf(headers.keySet()),
                StoredHeaders.encodeAll(List.copyOf(headers.values())));
    }

    static void link(Connection connection, String schema, long parentId, List<Long> childIds) throws SQLException {
        if (childIds.isEmpty()) {
            return;
        }
        Long[] children = childIds.toArray(Long[]::new);
        try (PreparedStatement edges = connection.prepareStatement(INSERT_EDGES.formatted(schema))) {
            edges.setLong(1, parentId);
            edges.setArray(2, connection.createArrayOf("bigint", children));
            edges.executeUpdate();
        }
        try (PreparedStatement inherit = connection.prepareStatement(INHERIT_MEMBERSHIP.formatted(schema))) {
            inherit.setArray(1, connection.createArrayOf("bigint", children));
            inherit.setLong(2, parentId);
            inherit.executeUpdate();
        }
    }

    /**
     * Locks every queue of the fan-out, then checks each for room before anything is inserted: a queue's new rows
     * are its distinct events (by identity key, else event id) that it does not hold yet.
     *
     * @return the queue that lacks room, or null when all have it
     */
    private static @Nullable Delivered checkRoom(Connection connection, String schema, List<Delivery> deliveries,
                                                 long limit) throws SQLException {
        Map<String, Map<String, Delivery>> eventsByQueue = new TreeMap<>();
        for (Delivery delivery : deliveries) {
            String event = delivery.dedupKey() != null ? "k:" + delivery.dedupKey() : "e:" + delivery.jobId();
            eventsByQueue.computeIfAbsent(delivery.queue(), queue -> new LinkedHashMap<>()).putIfAbsent(event,
                    delivery);
        }
        for (String queue : eventsByQueue.keySet()) {
            EnqueueStatements.lockQueue(connection, schema, queue);
        }
        for (Map.Entry<String, Map<String, Delivery>> queue : eventsByQueue.entrySet()) {
            long newRows = 0;
            for (Delivery delivery : queue.getValue().values()) {
                if (!holdsEvent(connection, schema, delivery)) {
                    newRows++;
                }
            }
            if (newRows == 0) {
                continue;
            }
            if (newRows > limit) {
                return Delivered.full(queue.getKey(), true);
            }
            if (ReadStatements.pendingExceeds(connection, schema, queue.getKey(), limit - newRows)) {
                return Delivered.full(queue.getKey(), false);
            }
        }
        return null;
    }

    private static boolean holdsEvent(Connection connection, String schema, Delivery delivery) throws SQLException {
        try (PreparedStatement holds = connection.prepareStatement(HOLDS_EVENT.formatted(schema))) {
            holds.setString(1, delivery.queue());
            holds.setString(2, delivery.jobId());
            holds.setString(3, delivery.queue());
            holds.setString(4, delivery.dedupKey());
            try (ResultSet rows = holds.executeQuery()) {
                rows.next();
                return rows.getBoolean(1);
            }
        }
    }

    /** Inserts the deliveries in one statement and returns the new rows' ids by queue and event id. */
    private static Map<String, Long> insertAll(Connection connection, String schema, List<Delivery> deliveries,
                                               long now) throws SQLException {
        int count = deliveries.size();
        String[] queues = new String[count];
        byte[][] payloads = new byte[count][];
        Integer[] budgets = new Integer[count];
        String[] eventIds = new String[count];
        String[] keys = new String[count];
        String[] fingerprints = new String[count];
        for (int i = 0; i < count; i++) {
            Delivery delivery = deliveries.get(i);
            queues[i] = delivery.queue();
            payloads[i] = delivery.payload();
            budgets[i] = delivery.maxAttempts();
            eventIds[i] = delivery.jobId();
            keys[i] = delivery.dedupKey();
            fingerprints[i] = delivery.dedupFingerprint();
        }
        Map<String, Long> ids = new HashMap<>(count * 2);
        try (PreparedStatement insert = connection.prepareStatement(INSERT.formatted(schema))) {
            insert.setLong(1, now);
            insert.setLong(2, now);
            insert.setLong(3, now);
            insert.setArray(4, connection.createArrayOf("text", queues));
            insert.setArray(5, connection.createArrayOf("bytea", payloads));
            insert.setArray(6, connection.createArrayOf("integer", budgets));
            insert.setArray(7, connection.createArrayOf("text", eventIds));
            insert.setArray(8, connection.createArrayOf("text", keys));
            insert.setArray(9, connection.createArrayOf("text", fingerprints));
            try (ResultSet returned = insert.executeQuery()) {
                while (returned.next()) {
                    ids.put(DeliveryMatch.rowKey(returned.getString(2), returned.getString(3)), returned.getLong(1));
                }
            }
        }
        return ids;
    }


    /** The row that stands for a delivery whose insert was skipped, or why it cannot stand for it. */
    private static DeliveryMatch existing(Connection connection, String schema, Delivery delivery)
            throws SQLException {
        DeliveryMatch.Stored byEventId;
        try (PreparedStatement find = connection.prepareStatement(FIND_BY_EVENT_ID.formatted(schema))) {
            find.setString(1, delivery.queue());
            find.setString(2, delivery.jobId());
            try (ResultSet rows = find.executeQuery()) {
                byEventId = rows.next() ? new DeliveryMatch.Stored(rows.getLong(1), rows.getString(2),
                        rows.getString(3)) : null;
            }
        }
        DeliveryMatch.Stored byIdentity = null;
        if (delivery.dedupKey() != null) {
            try (PreparedStatement find = connection.prepareStatement(FIND_BY_IDENTITY.formatted(schema))) {
                find.setString(1, delivery.queue());
                find.setString(2, delivery.dedupKey());
                try (ResultSet rows = find.executeQuery()) {
                    byIdentity = rows.next() ? new DeliveryMatch.Stored(rows.getLong(1), delivery.dedupKey(),
                            rows.getString(2)) : null;
                }
            }
        }
        return DeliveryMatch.judge(delivery, byEventId, byIdentity);
    }
}
