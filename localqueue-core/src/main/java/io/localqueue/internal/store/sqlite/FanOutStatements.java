package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Event-bus fan-out: the rows of one dispatch (or of one batch of dispatches) in the subscriptions' queues, keyed by
 * event id and durable identity as the Python library's bus keys them, and the edges from a handler's delivery to
 * the deliveries it emitted, inside the caller's write transaction.
 */
final class FanOutStatements {

    /** A new delivery, or nothing when its queue holds the event id or the identity key already. */
    private static final String INSERT = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, job_id, dedup_key,
                                  dedup_fingerprint, created_at, updated_at)
            VALUES (?1, ?2, 0, 0, ?3, ?4, ?5, ?6, ?7, ?4, ?4)
            ON CONFLICT DO NOTHING RETURNING id""";

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

    static Delivered deliver(Session session, List<Delivery> deliveries, long now) throws SQLException {
        List<Long> ids = new ArrayList<>(deliveries.size());
        List<Boolean> inserted = new ArrayList<>(deliveries.size());
        for (Delivery delivery : deliveries) {
            Long id = session.queryLong(INSERT, statement -> {
                statement.setString(1, delivery.queue());
                statement.setBytes(2, delivery.payload());
                statement.setInt(3, delivery.maxAttempts());
                statement.setLong(4, now);
                statement.setString(5, delivery.jobId());
                statement.setString(6, delivery.dedupKey());
                statement.setString(7, delivery.dedupFingerprint());
            });
            if (id != null) {
                ids.add(id);
                inserted.add(true);
                continue;
            }
            Existing existing = existing(session, delivery);
            if (existing.conflict() != null) {
                return Delivered.conflicting(existing.conflict());
            }
            ids.add(existing.id());
            inserted.add(false);
        }
        return new Delivered(List.copyOf(ids), List.copyOf(inserted), null);
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
    private static Existing existing(Session session, Delivery delivery) throws SQLException {
        StoredKeys byEventId = session.query(FIND_BY_EVENT_ID, statement -> {
            statement.setString(1, delivery.queue());
            statement.setString(2, delivery.jobId());
        }, rows -> rows.next() ? new StoredKeys(rows.getLong(1), rows.getString(2), rows.getString(3)) : null);
        StoredKeys byIdentity = delivery.dedupKey() == null ? null : session.query(FIND_BY_IDENTITY, statement -> {
            statement.setString(1, delivery.queue());
            statement.setString(2, delivery.dedupKey());
        }, rows -> rows.next() ? new StoredKeys(rows.getLong(1), delivery.dedupKey(), rows.getString(2)) : null);
        String where = "in queue '" + delivery.queue() + "'";
        if (byEventId != null && byIdentity != null && byEventId.id() != byIdentity.id()) {
            return Existing.conflict("event " + delivery.jobId() + " and its identity are stored as different "
                    + "deliveries (" + byEventId.id() + " and " + byIdentity.id() + ") " + where);
        }
        if (byEventId != null && delivery.dedupKey() != null
                && (!Objects.equals(byEventId.dedupKey(), delivery.dedupKey())
                || !Objects.equals(byEventId.fingerprint(), delivery.dedupFingerprint()))) {
            return Existing.conflict("event " + delivery.jobId() + " is stored " + where + " as delivery "
                    + byEventId.id() + " with another identity or payload");
        }
        if (byIdentity != null && !Objects.equals(byIdentity.fingerprint(), delivery.dedupFingerprint())) {
            return Existing.conflict("the identity of event " + delivery.jobId() + " is stored " + where
                    + " as delivery " + byIdentity.id() + " with another payload");
        }
        StoredKeys found = byEventId != null ? byEventId : byIdentity;
        if (found == null) {
            throw new IllegalStateException("delivery of event " + delivery.jobId() + " " + where
                    + " conflicted, but no row holds its event id or identity");
        }
        return new Existing(found.id(), null);
    }

    private record StoredKeys(long id, @Nullable String dedupKey, @Nullable String fingerprint) {
    }

    private record Existing(long id, @Nullable String conflict) {
        static Existing conflict(String conflict) {
            return new Existing(-1, conflict);
        }
    }
}
