package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.DeliveryMatch;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Event-bus fan-out: the rows of one dispatch (or of one batch of dispatches) in the subscriptions' queues, keyed by
 * event id and durable identity as the Python library's bus keys them, each new row's headers beside it, and the
 * edges from a handler's delivery to the deliveries it emitted, inside the caller's write transaction.
 */
final class FanOutStatements {

    /** Rows per multi-row insert, largest first: a fan-out goes in as few statements as these add up to. */
    private static final int[] ROWS_PER_INSERT = {256, 64, 16, 4, 1};

    /**
     * One multi-row insert per entry of {@link #ROWS_PER_INSERT}: new deliveries, or nothing for a row whose queue
     * holds its event id or identity key already (also from an earlier row of the same statement); each new row's id
     * comes back with its queue and event id, since {@code RETURNING} gives no order.
     */
    private static final String[] INSERT_ROWS = new String[ROWS_PER_INSERT.length];

    private static final int VALUES_PER_ROW = 6;

    static {
        for (int i = 0; i < ROWS_PER_INSERT.length; i++) {
            StringBuilder sql = new StringBuilder("INSERT INTO messages (queue, payload, status, attempts, max_attempts, "
                    + "available_at, job_id, dedup_key, dedup_fingerprint, created_at, updated_at) VALUES ");
            for (int row = 0; row < ROWS_PER_INSERT[i]; row++) {
                int first = 2 + row * VALUES_PER_ROW;
                sql.append(row == 0 ? "" : ", ").append("(?").append(first).append(", ?").append(first + 1)
                        .append(", 0, 0, ?").append(first + 2).append(", ?1, ?").append(first + 3).append(", ?")
                        .append(first + 4).append(", ?").append(first + 5).append(", ?1, ?1)");
            }
            INSERT_ROWS[i] = sql.append(" ON CONFLICT DO NOTHING RETURNING id, queue, job_id").toString();
        }
    }

    private static final String FIND_BY_EVENT_ID =
            "SELECT id, dedup_key, dedup_fingerprint FROM messages WHERE queue = ? AND job_id = ?";

    private static final String FIND_BY_IDENTITY =
            "SELECT id, dedup_fingerprint FROM messages WHERE queue = ? AND dedup_key = ?";

    private static final String INSERT_EDGE = """
            INSERT OR IGNORE INTO event_bus_delivery_edges (parent_message_id, child_message_id) VALUES (?, ?)""";

    /** The executions holding the parent come to hold the child and everything the child emitted, transitively. */
    private static final String INHERIT_MEMBERSHIP = """
            WITH RECURSIVE descendants(id) AS (
                SELECT ?2
                UNION
                SELECT e.child_message_id FROM event_bus_delivery_edges e JOIN descendants d
                    ON e.parent_message_id = d.id)
            INSERT OR IGNORE INTO event_bus_execution_deliveries (execution_id, message_id)
            SELECT m.execution_id, d.id FROM event_bus_execution_deliveries m, descendants d
             WHERE m.message_id = ?1""";

    private FanOutStatements() {
    }

    /** Whether a queue holds a row with the event id or identity key already. */
    private static final String HOLDS_EVENT = """
            SELECT EXISTS (SELECT 1 FROM messages WHERE queue = ?1 AND job_id = ?2)
                OR (?3 IS NOT NULL AND EXISTS (SELECT 1 FROM messages WHERE queue = ?1 AND dedup_key = ?3))""";

    /** Counts pending rows but stops at {@code cap}, so the check costs O(limit), never O(backlog). */
    private static final String COUNT_PENDING_UP_TO =
            "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE queue = ? AND status IN (0, 1) LIMIT ?)";

    static Delivered deliver(Session session, List<Delivery> deliveries, long now, long limit) throws SQLException {
        if (limit > 0) {
            Delivered full = checkRoom(session, deliveries, limit);
            if (full != null) {
                return full;
            }
        }
        Map<String, Long> insertedIds = insertAll(session, deliveries, now);
        Delivered delivered = DeliveryMatch.assemble(deliveries, insertedIds, delivery -> existing(session, delivery));
        if (delivered.written()) {
            insertHeaders(session, deliveries, delivered);
        }
        return delivered;
    }

    /** Stores the headers of the new rows of a fan-out; a row that stood for a delivery keeps its own. */
    private static void insertHeaders(Session session, List<Delivery> deliveries, Delivered delivered)
            throws SQLException {
        Map<Long, Map<String, String>> headers = delivered.newRowHeaders(deliveries);
        EnqueueStatements.insertHeaders(session, List.copyOf(headers.keySet()), List.copyOf(headers.values()));
    }

    /**
     * Checks every queue of the fan-out for room before anything is inserted: a queue's new rows are its distinct
     * events (by identity key, else event id) that it does not hold yet.
     *
     * @return the queue that lacks room, or null when all have it
     */
    private static @Nullable Delivered checkRoom(Session session, List<Delivery> deliveries, long limit)
            throws SQLException {
        Map<String, Set<String>> eventsByQueue = new LinkedHashMap<>();
        Map<String, Delivery> firstByEvent = new LinkedHashMap<>();
        for (Delivery delivery : deliveries) {
            String event = delivery.dedupKey() != null ? "k:" + delivery.dedupKey() : "e:" + delivery.jobId();
            eventsByQueue.computeIfAbsent(delivery.queue(), queue -> new LinkedHashSet<>()).add(event);
            firstByEvent.putIfAbsent(delivery.queue() + "\n" + event, delivery);
        }
        for (Map.Entry<String, Set<String>> queue : eventsByQueue.entrySet()) {
            long newRows = 0;
            for (String event : queue.getValue()) {
                Delivery delivery = firstByEvent.get(queue.getKey() + "\n" + event);
                Long held = session.queryLong(HOLDS_EVENT, statement -> {
                    statement.setString(1, delivery.queue());
                    statement.setString(2, delivery.jobId());
                    statement.setString(3, delivery.dedupKey());
                });
                if (held == null || held == 0) {
                    newRows++;
                }
            }
            if (newRows == 0) {
                continue;
            }
            if (newRows > limit) {
                return Delivered.full(queue.getKey(), true);
            }
            long allowed = limit - newRows;
            Long pending = session.queryLong(COUNT_PENDING_UP_TO, statement -> {
                statement.setString(1, queue.getKey());
                statement.setLong(2, allowed + 1);
            });
            if (pending != null && pending > allowed) {
                return Delivered.full(queue.getKey(), false);
            }
        }
        return null;
    }

    /** Inserts the deliveries in multi-row statements and returns the new rows' ids by queue and event id. */
    private static Map<String, Long> insertAll(Session session, List<Delivery> deliveries, long now)
            throws SQLException {
        Map<String, Long> ids = new java.util.HashMap<>(deliveries.size() * 2);
        int next = 0;
        for (int size = 0; size < ROWS_PER_INSERT.length; size++) {
            int rows = ROWS_PER_INSERT[size];
            while (deliveries.size() - next >= rows) {
                int first = next;
                session.query(INSERT_ROWS[size], statement -> {
                    statement.setLong(1, now);
                    for (int row = 0; row < rows; row++) {
                        Delivery delivery = deliveries.get(first + row);
                        int column = 2 + row * VALUES_PER_ROW;
                        statement.setString(column, delivery.queue());
                        statement.setBytes(column + 1, delivery.payload());
                        statement.setInt(column + 2, delivery.maxAttempts());
                        statement.setString(column + 3, delivery.jobId());
                        statement.setString(column + 4, delivery.dedupKey());
                        statement.setString(column + 5, delivery.dedupFingerprint());
                    }
                }, returned -> {
                    while (returned.next()) {
                        ids.put(DeliveryMatch.rowKey(returned.getString(2), returned.getString(3)), returned.getLong(1));
                    }
                    return null;
                });
                next += rows;
            }
        }
        return ids;
    }


    static void link(Session session, long parentId, List<Long> childIds) throws SQLException {
        session.batch(INSERT_EDGE, childIds.size(), (statement, index) -> {
            statement.setLong(1, parentId);
            statement.setLong(2, childIds.get(index));
        });
        for (long child : childIds) {
            session.update(INHERIT_MEMBERSHIP, statement -> {
                statement.setLong(1, parentId);
                statement.setLong(2, child);
            });
        }
    }

    /** The row that stands for a delivery whose insert was ignored, or why it cannot stand for it. */
    private static DeliveryMatch existing(Session session, Delivery delivery) throws SQLException {
        DeliveryMatch.Stored byEventId = session.query(FIND_BY_EVENT_ID, statement -> {
            statement.setString(1, delivery.queue());
            statement.setString(2, delivery.jobId());
        }, rows -> rows.next() ? new DeliveryMatch.Stored(rows.getLong(1), rows.getString(2), rows.getString(3))
                : null);
        DeliveryMatch.Stored byIdentity = delivery.dedupKey() == null ? null : session.query(FIND_BY_IDENTITY,
                statement -> {
                    statement.setString(1, delivery.queue());
                    statement.setString(2, delivery.dedupKey());
                }, rows -> rows.next() ? new DeliveryMatch.Stored(rows.getLong(1), delivery.dedupKey(),
                        rows.getString(2)) : null);
        return DeliveryMatch.judge(delivery, byEventId, byIdentity);
    }
}
