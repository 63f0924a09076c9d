package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.Columns;
import io.localqueue.internal.store.ExecutionBatch;
import io.localqueue.internal.store.ExecutionDeletion;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.SourceClaim;
import io.localqueue.internal.store.StoredExecution;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Event-bus executions in the Python library's tables: finding or creating one, its fenced source lease, the
 * membership and counts each committed batch adds, source completion, the member deliveries' states that decide
 * when it is complete, and the deletion of a complete one in batches; inside the caller's transaction, except
 * {@link #pending} and {@link #list}, reads.
 */
final class ExecutionStatements {

    private static final String FIND_BOUND = """
            SELECT execution_id FROM event_bus_execution_runtime
             WHERE bus_name = ? AND checkpoint_name = ? AND checkpoint_generation = ?""";

    private static final String FIND_PENDING = """
            SELECT execution_id FROM event_bus_execution_runtime
             WHERE bus_name = ? AND checkpoint_name = ? AND source_fingerprint = ? AND checkpoint_generation IS NULL""";

    private static final String CREATE = """
            INSERT INTO event_bus_executions (execution_id, bus_name, source_name, checkpoint_name, source_completed,
                                              created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5)""";

    private static final String CREATE_RUNTIME = """
            INSERT INTO event_bus_execution_runtime (execution_id, bus_name, checkpoint_name, source_fingerprint)
            VALUES (?, ?, ?, ?)""";

    private static final String READ = """
            SELECT e.execution_id, e.bus_name, e.source_name, r.checkpoint_name, r.source_fingerprint,
                   r.checkpoint_generation, r.source_completed_at, r.completed_at, e.created_at, e.updated_at,
                   r.items_committed, r.events_dispatched, r.events_unrouted, r.deliveries_inserted,
                   r.deliveries_deduplicated, r.batches_committed,
                   (SELECT COALESCE(SUM(m.status = 0), 0) || ',' || COALESCE(SUM(m.status = 1), 0) || ','
                           || COALESCE(SUM(m.status = 2), 0) || ',' || COALESCE(SUM(m.status = 3), 0)
                      FROM event_bus_execution_deliveries d JOIN messages m ON m.id = d.message_id
                     WHERE d.execution_id = e.execution_id)
              FROM event_bus_executions e JOIN event_bus_execution_runtime r ON r.execution_id = e.execution_id
             WHERE e.execution_id = ?""";

    /** Takes the source lease when it is free, expired, or already this receipt's; never once the source is done. */
    private static final String CLAIM_SOURCE = """
            UPDATE event_bus_execution_runtime SET source_receipt = ?2, source_lease_until = ?4
             WHERE execution_id = ?1 AND source_completed_at IS NULL
               AND (source_lease_until IS NULL OR source_lease_until <= ?3 OR source_receipt = ?2)""";

    private static final String SOURCE_DONE =
            "SELECT source_completed_at IS NOT NULL FROM event_bus_execution_runtime WHERE execution_id = ?";

    private static final String HOLDS_SOURCE = """
            SELECT EXISTS (SELECT 1 FROM event_bus_execution_runtime
                            WHERE execution_id = ? AND source_receipt = ? AND source_lease_until > ?)""";

    /** The batch's deliveries (a JSON array of ids) and everything they emitted already join the execution. */
    private static final String ADD_MEMBERS = """
            WITH RECURSIVE tree(id) AS (
                SELECT value FROM json_each(?2)
                UNION
                SELECT e.child_message_id FROM event_bus_delivery_edges e JOIN tree t ON e.parent_message_id = t.id)
            INSERT OR IGNORE INTO event_bus_execution_deliveries (execution_id, message_id)
            SELECT ?1, id FROM tree""";

    private static final String COUNT_BATCH = """
            UPDATE event_bus_execution_runtime
               SET items_committed = items_committed + ?2, events_dispatched = events_dispatched + ?3,
                   events_unrouted = events_unrouted + ?4, deliveries_inserted = deliveries_inserted + ?5,
                   deliveries_deduplicated = deliveries_deduplicated + ?6, batches_committed = batches_committed + 1,
                   checkpoint_generation = COALESCE(?7, checkpoint_generation)
             WHERE execution_id = ?1""";

    private static final String TOUCH = "UPDATE event_bus_executions SET updated_at = ? WHERE execution_id = ?";

    private static final String COMPLETE_SOURCE = """
            UPDATE event_bus_execution_runtime
               SET source_completed_at = ?3, source_receipt = NULL, source_lease_until = NULL
             WHERE execution_id = ?1 AND source_receipt = ?2""";

    private static final String MARK_SOURCE_COMPLETED = """
            UPDATE event_bus_executions SET source_completed = 1, updated_at = ? WHERE execution_id = ?""";

    private static final String RELEASE_SOURCE = """
            UPDATE event_bus_execution_runtime SET source_receipt = NULL, source_lease_until = NULL
             WHERE execution_id = ? AND source_receipt = ?""";

    private static final String FINALIZE = """
            UPDATE event_bus_execution_runtime SET completed_at = COALESCE(completed_at, ?) WHERE execution_id = ?""";

    /**
     * Whether an execution may still have work: its source is not done, or a member is ready or leased. The newest
     * members come first, since those are the likeliest still to run.
     */
    private static final String PENDING = """
            SELECT (SELECT source_completed_at IS NULL FROM event_bus_execution_runtime WHERE execution_id = ?1)
                OR EXISTS (SELECT 1 FROM event_bus_execution_deliveries d JOIN messages m ON m.id = d.message_id
                            WHERE d.execution_id = ?1 AND m.status IN (0, 1)
                            ORDER BY d.message_id DESC)""";

    /** An execution of the bus, with when it was last seen complete (null while it is not, or was not looked at). */
    private static final String FIND_OF_BUS = """
            SELECT completed_at FROM event_bus_execution_runtime WHERE execution_id = ? AND bus_name = ?""";

    /**
     * Releases a batch of an execution's deliveries from it, lowest ids first, walking its primary key, so that a
     * purge may delete them once they are acknowledged or dead letters.
     */
    private static final String RELEASE_MEMBERS = """
            DELETE FROM event_bus_execution_deliveries
             WHERE execution_id = ?1
               AND message_id IN (SELECT message_id FROM event_bus_execution_deliveries
                                   WHERE execution_id = ?1 ORDER BY message_id LIMIT ?2)""";

    /** Deletes an execution's runtime row, once it has no member left. */
    private static final String DELETE_RUNTIME = "DELETE FROM event_bus_execution_runtime WHERE execution_id = ?";

    /** Deletes an execution's row, after its runtime row. */
    private static final String DELETE = "DELETE FROM event_bus_executions WHERE execution_id = ?";

    /** Every execution of a bus with its runtime row, oldest first, without counting its deliveries. */
    private static final String LIST = """
            SELECT e.execution_id, e.source_name, r.checkpoint_name, r.source_completed_at, r.completed_at,
                   e.created_at, e.updated_at, r.items_committed, r.deliveries_inserted, r.deliveries_deduplicated
              FROM event_bus_executions e JOIN event_bus_execution_runtime r ON r.execution_id = e.execution_id
             WHERE e.bus_name = ?
             ORDER BY e.created_at, e.execution_id""";

    private ExecutionStatements() {
    }

    static @Nullable StoredExecution open(Session session, String bus, String sourceName, String checkpoint,
                                          String fingerprint, @Nullable String generation, String newId, long now)
            throws SQLException {
        String id;
        if (generation != null) {
            id = findId(session, FIND_BOUND, bus, checkpoint, generation);
            if (id == null) {
                return null;
            }
        } else {
            id = findId(session, FIND_PENDING, bus, checkpoint, fingerprint);
            if (id == null) {
                id = newId;
                String created = id;
                session.update(CREATE, statement -> {
                    statement.setString(1, created);
                    statement.setString(2, bus);
                    statement.setString(3, sourceName);
                    statement.setString(4, checkpoint);
                    statement.setLong(5, now);
                });
                session.update(CREATE_RUNTIME, statement -> {
                    statement.setString(1, created);
                    statement.setString(2, bus);
                    statement.setString(3, checkpoint);
                    statement.setString(4, fingerprint);
                });
            }
        }
        return read(session, id).requireSource(sourceName, fingerprint);
    }

    static StoredExecution read(Session session, String id) throws SQLException {
        StoredExecution execution = session.query(READ, statement -> statement.setString(1, id),
                rows -> rows.next() ? execution(rows) : null);
        if (execution == null) {
            throw new IllegalStateException("execution " + id + " is not stored (deleted meanwhile?)");
        }
        return execution;
    }

    static SourceClaim claimSource(Session session, String id, String receipt, long now, long leaseUntil)
            throws SQLException {
        int changed = session.update(CLAIM_SOURCE, statement -> {
            statement.setString(1, id);
            statement.setString(2, receipt);
            statement.setLong(3, now);
            statement.setLong(4, leaseUntil);
        });
        if (changed == 1) {
            return SourceClaim.TAKEN;
        }
        Long done = session.queryLong(SOURCE_DONE, statement -> statement.setString(1, id));
        return done != null && done == 1 ? SourceClaim.SOURCE_DONE : SourceClaim.HELD;
    }

    static boolean holdsSource(Session session, String id, String receipt, long now) throws SQLException {
        Long held = session.queryLong(HOLDS_SOURCE, statement -> {
            statement.setString(1, id);
            statement.setString(2, receipt);
            statement.setLong(3, now);
        });
        return held != null && held == 1;
    }

    static void recordBatch(Session session, ExecutionBatch batch, long now) throws SQLException {
        if (!batch.deliveryIds().isEmpty()) {
            String ids = batch.deliveryIds().toString();
            session.update(ADD_MEMBERS, statement -> {
                statement.setString(1, batch.executionId());
                statement.setString(2, ids);
            });
        }
        session.update(COUNT_BATCH, statement -> {
            statement.setString(1, batch.executionId());
            statement.setLong(2, batch.items());
            statement.setLong(3, batch.dispatched());
            statement.setLong(4, batch.unrouted());
            statement.setLong(5, batch.inserted());
            statement.setLong(6, batch.deduplicated());
            statement.setString(7, batch.generation());
        });
        touch(session, batch.executionId(), now);
    }

    static boolean completeSource(Session session, String id, String receipt, long now) throws SQLException {
        int changed = session.update(COMPLETE_SOURCE, statement -> {
            statement.setString(1, id);
            statement.setString(2, receipt);
            statement.setLong(3, now);
        });
        if (changed == 1) {
            session.update(MARK_SOURCE_COMPLETED, statement -> {
                statement.setLong(1, now);
                statement.setString(2, id);
            });
        }
        return changed == 1;
    }

    static void releaseSource(Session session, String id, String receipt) throws SQLException {
        session.update(RELEASE_SOURCE, statement -> {
            statement.setString(1, id);
            statement.setString(2, receipt);
        });
    }

    static StoredExecution settle(Session session, String id, long now) throws SQLException {
        StoredExecution execution = read(session, id);
        if (execution.settled() && execution.completedAt() == null) {
            session.update(FINALIZE, statement -> {
                statement.setLong(1, now);
                statement.setString(2, id);
            });
            touch(session, id, now);
            execution = read(session, id);
        }
        return execution;
    }

    static boolean pending(Session session, String id) throws SQLException {
        Long pending = session.queryLong(PENDING, statement -> statement.setString(1, id));
        return pending == null || pending != 0;
    }

    static ExecutionDeletion delete(Session session, String bus, String id, long completedBefore, long now,
                                    int limit) throws SQLException {
        Seen seen = session.query(FIND_OF_BUS, statement -> {
            statement.setString(1, id);
            statement.setString(2, bus);
        }, rows -> rows.next() ? new Seen(Columns.nullableLong(rows, 1)) : null);
        if (seen == null) {
            return ExecutionDeletion.unchanged(ExecutionDeletion.Step.UNKNOWN);
        }
        Long completedAt = seen.completedAt();
        if (completedAt == null) {
            StoredExecution execution = settle(session, id, now);
            completedAt = execution.completedAt();
            if (completedAt == null) {
                return ExecutionDeletion.incomplete(execution);
            }
        }
        if (completedAt > completedBefore) {
            return ExecutionDeletion.unchanged(ExecutionDeletion.Step.RECENT);
        }
        int released = session.update(RELEASE_MEMBERS, statement -> {
            statement.setString(1, id);
            statement.setInt(2, limit);
        });
        if (released < limit) {
            session.update(DELETE_RUNTIME, statement -> statement.setString(1, id));
            session.update(DELETE, statement -> statement.setString(1, id));
        }
        return ExecutionDeletion.released(released, limit);
    }

    static List<ExecutionRow> list(Session session, String bus) throws SQLException {
        if (!BusExecutionRows.hasExecutions(session)) {
            return List.of();
        }
        return session.query(LIST, statement -> statement.setString(1, bus), rows -> {
            List<ExecutionRow> executions = new ArrayList<>();
            while (rows.next()) {
                executions.add(new ExecutionRow(rows.getString(1), rows.getString(2), rows.getString(3),
                        Columns.nullableLong(rows, 4), Columns.nullableLong(rows, 5), rows.getLong(6), rows.getLong(7),
                        rows.getLong(8), rows.getLong(9), rows.getLong(10)));
            }
            return executions;
        });
    }

    private static void touch(Session session, String id, long now) throws SQLException {
        session.update(TOUCH, statement -> {
            statement.setLong(1, now);
            statement.setString(2, id);
        });
    }

    private static @Nullable String findId(Session session, String sql, String bus, String checkpoint, String key)
            throws SQLException {
        return session.query(sql, statement -> {
            statement.setString(1, bus);
            statement.setString(2, checkpoint);
            statement.setString(3, key);
        }, rows -> rows.next() ? rows.getString(1) : null);
    }

    private static StoredExecution execution(ResultSet rows) throws SQLException {
        String[] counts = rows.getString(17).split(",");
        return new StoredExecution(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
                rows.getString(5), rows.getString(6), Columns.nullableLong(rows, 7), Columns.nullableLong(rows, 8), rows.getLong(9),
                rows.getLong(10), rows.getLong(11), rows.getLong(12), rows.getLong(13), rows.getLong(14),
                rows.getLong(15), rows.getLong(16), Long.parseLong(counts[0]), Long.parseLong(counts[1]),
                Long.parseLong(counts[2]), Long.parseLong(counts[3]));
    }

    /** An execution found, with when it was last seen complete. */
    private record Seen(@Nullable Long completedAt) {
    }
}
