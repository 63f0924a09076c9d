package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.Columns;
import io.localqueue.internal.store.ExecutionBatch;
import io.localqueue.internal.store.ExecutionDeletion;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.SourceClaim;
import io.localqueue.internal.store.StoredExecution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Event-bus executions on PostgreSQL, in the Python library's tables: finding or creating one (under an advisory lock
 * of its checkpoint, so that hosts opening the same execution at once converge on one), its fenced source lease, the
 * membership and counts each committed batch adds, source completion, the member deliveries' states that decide
 * when it is complete, and the deletion of a complete one in batches; inside the caller's transaction, except
 * {@link #pending} and {@link #list}, reads.
 */
final class ExecutionStatements {

    private static final String FIND_BOUND = """
            SELECT execution_id FROM %1$s.event_bus_execution_runtime
             WHERE bus_name = ? AND checkpoint_name = ? AND checkpoint_generation = ?""";

    private static final String FIND_PENDING = """
            SELECT execution_id FROM %1$s.event_bus_execution_runtime
             WHERE bus_name = ? AND checkpoint_name = ? AND source_fingerprint = ? AND checkpoint_generation IS NULL""";

    private static final String CREATE = """
            INSERT INTO %1$s.event_bus_executions (execution_id, bus_name, source_name, checkpoint_name,
                                                   source_completed, created_at, updated_at)
            VALUES (?, ?, ?, ?, false, ?, ?)""";

    private static final String CREATE_RUNTIME = """
            INSERT INTO %1$s.event_bus_execution_runtime (execution_id, bus_name, checkpoint_name, source_fingerprint)
            VALUES (?, ?, ?, ?)""";

    private static final String READ = """
            SELECT e.execution_id, e.bus_name, e.source_name, r.checkpoint_name, r.source_fingerprint,
                   r.checkpoint_generation, r.source_completed_at, r.completed_at, e.created_at, e.updated_at,
                   r.items_committed, r.events_dispatched, r.events_unrouted, r.deliveries_inserted,
                   r.deliveries_deduplicated, r.batches_committed, c.ready, c.processing, c.acknowledged, c.failed
              FROM %1$s.event_bus_executions AS e
              JOIN %1$s.event_bus_execution_runtime AS r ON r.execution_id = e.execution_id
             CROSS JOIN LATERAL (
                   SELECT count(*) FILTER (WHERE m.status = 0) AS ready,
                          count(*) FILTER (WHERE m.status = 1) AS processing,
                          count(*) FILTER (WHERE m.status = 2) AS acknowledged,
                          count(*) FILTER (WHERE m.status = 3) AS failed
                     FROM %1$s.event_bus_execution_deliveries AS d
                     JOIN %1$s.messages AS m ON m.id = d.message_id
                    WHERE d.execution_id = e.execution_id) AS c
             WHERE e.execution_id = ?""";

    /** Takes the source lease when it is free, expired, or already this receipt's; never once the source is done. */
    private static final String CLAIM_SOURCE = """
            UPDATE %1$s.event_bus_execution_runtime SET source_receipt = ?, source_lease_until = ?
             WHERE execution_id = ? AND source_completed_at IS NULL
               AND (source_lease_until IS NULL OR source_lease_until <= ? OR source_receipt = ?)""";

    private static final String SOURCE_DONE =
            "SELECT source_completed_at IS NOT NULL FROM %1$s.event_bus_execution_runtime WHERE execution_id = ?";

    private static final String HOLDS_SOURCE = """
            SELECT EXISTS (SELECT 1 FROM %1$s.event_bus_execution_runtime
                            WHERE execution_id = ? AND source_receipt = ? AND source_lease_until > ?)""";

    /** The batch's deliveries and everything they emitted already join the execution. */
    private static final String ADD_MEMBERS = """
            WITH RECURSIVE tree (id) AS (
                SELECT unnest(?::bigint[])
                UNION
                SELECT e.child_message_id FROM %1$s.event_bus_delivery_edges AS e
                  JOIN tree AS t ON e.parent_message_id = t.id)
            INSERT INTO %1$s.event_bus_execution_deliveries (execution_id, message_id)
            SELECT ?, id FROM tree
            ON CONFLICT DO NOTHING""";

    private static final String COUNT_BATCH = """
            UPDATE %1$s.event_bus_execution_runtime
               SET items_committed = items_committed + ?, events_dispatched = events_dispatched + ?,
                   events_unrouted = events_unrouted + ?, deliveries_inserted = deliveries_inserted + ?,
                   deliveries_deduplicated = deliveries_deduplicated + ?, batches_committed = batches_committed + 1,
                   checkpoint_generation = COALESCE(?, checkpoint_generation)
             WHERE execution_id = ?""";

    private static final String TOUCH =
            "UPDATE %1$s.event_bus_executions SET updated_at = ? WHERE execution_id = ?";

    private static final String COMPLETE_SOURCE = """
            UPDATE %1$s.event_bus_execution_runtime
               SET source_completed_at = ?, source_receipt = NULL, source_lease_until = NULL
             WHERE execution_id = ? AND source_receipt = ?""";

    private static final String MARK_SOURCE_COMPLETED = """
            UPDATE %1$s.event_bus_executions SET source_completed = true, updated_at = ? WHERE execution_id = ?""";

    private static final String RELEASE_SOURCE = """
            UPDATE %1$s.event_bus_execution_runtime SET source_receipt = NULL, source_lease_until = NULL
             WHERE execution_id = ? AND source_receipt = ?""";

    private static final String FINALIZE = """
            UPDATE %1$s.event_bus_execution_runtime SET completed_at = COALESCE(completed_at, ?)
             WHERE execution_id = ?""";

    /** Whether an execution may still have work: its source is not done, or a member is ready or leased. */
    private static final String PENDING = """
            SELECT (SELECT source_completed_at IS NULL FROM %1$s.event_bus_execution_runtime WHERE execution_id = ?)
                OR EXISTS (SELECT 1 FROM %1$s.event_bus_execution_deliveries AS d
                             JOIN %1$s.messages AS m ON m.id = d.message_id
                            WHERE d.execution_id = ? AND m.status IN (0, 1))""";

    /**
     * An execution of the bus, with when it was last seen complete, its runtime row locked until the transaction
     * ends: a replay of one of its dead letters, which clears that time, waits for the deletion step, and then finds
     * the released delivery in no execution.
     */
    private static final String FIND_OF_BUS = """
            SELECT completed_at FROM %1$s.event_bus_execution_runtime WHERE execution_id = ? AND bus_name = ?
               FOR UPDATE""";

    /**
     * Releases a batch of an execution's deliveries from it, lowest ids first, walking its primary key, so that a
     * purge may delete them once they are acknowledged or dead letters.
     */
    private static final String RELEASE_MEMBERS = """
            DELETE FROM %1$s.event_bus_execution_deliveries
             WHERE execution_id = ?
               AND message_id IN (SELECT message_id FROM %1$s.event_bus_execution_deliveries
                                   WHERE execution_id = ? ORDER BY message_id LIMIT ?)""";

    /** Deletes an execution's runtime row, once it has no member left. */
    private static final String DELETE_RUNTIME =
            "DELETE FROM %1$s.event_bus_execution_runtime WHERE execution_id = ?";

    /** Deletes an execution's row, after its runtime row. */
    private static final String DELETE = "DELETE FROM %1$s.event_bus_executions WHERE execution_id = ?";

    /** Every execution of a bus with its runtime row, oldest first, without counting its deliveries. */
    private static final String LIST = """
            SELECT e.execution_id, e.source_name, r.checkpoint_name, r.source_completed_at, r.completed_at,
                   e.created_at, e.updated_at, r.items_committed, r.deliveries_inserted, r.deliveries_deduplicated
              FROM %1$s.event_bus_executions AS e
              JOIN %1$s.event_bus_execution_runtime AS r ON r.execution_id = e.execution_id
             WHERE e.bus_name = ?
             ORDER BY e.created_at, e.execution_id""";

    private ExecutionStatements() {
    }

    static @Nullable StoredExecution open(Connection connection, String schema, String bus, String sourceName,
                                          String checkpoint, String fingerprint, @Nullable String generation,
                                          String newId, long now) throws SQLException {
        PostgresSchema.lock(connection, schema + "/execution:" + bus + ":" + checkpoint);
        String id;
        if (generation != null) {
            id = findId(connection, FIND_BOUND.formatted(schema), bus, checkpoint, generation);
            if (id == null) {
                return null;
            }
        } else {
            id = findId(connection, FIND_PENDING.formatted(schema), bus, checkpoint, fingerprint);
            if (id == null) {
                id = newId;
                try (PreparedStatement create = connection.prepareStatement(CREATE.formatted(schema))) {
                    create.setString(1, id);
                    create.setString(2, bus);
                    create.setString(3, sourceName);
                    create.setString(4, checkpoint);
                    create.setLong(5, now);
                    create.setLong(6, now);
                    create.executeUpdate();
                }
                try (PreparedStatement create = connection.prepareStatement(CREATE_RUNTIME.formatted(schema))) {
                    create.setString(1, id);
                    create.setString(2, bus);
                    create.setString(3, checkpoint);
                    create.setString(4, fingerprint);
                    create.executeUpdate();
                }
            }
        }
        return read(connection, schema, id).requireSource(sourceName, fingerprint);
    }

    static StoredExecution read(Connection connection, String schema, String id) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ.formatted(schema))) {
            read.setString(1, id);
            try (ResultSet rows = read.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("execution " + id + " is not stored (deleted meanwhile?)");
                }
                return new StoredExecution(rows.getString(1), rows.getString(2), rows.getString(3),
                        rows.getString(4), rows.getString(5), rows.getString(6), Columns.nullableLong(rows, 7),
                        Columns.nullableLong(rows, 8), rows.getLong(9), rows.getLong(10), rows.getLong(11), rows.getLong(12),
                        rows.getLong(13), rows.getLong(14), rows.getLong(15), rows.getLong(16), rows.getLong(17),
                        rows.getLong(18), rows.getLong(19), rows.getLong(20));
            }
        }
    }

    static SourceClaim claimSource(Connection connection, String schema, String id, String receipt, long now,
                                   long leaseUntil) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(CLAIM_SOURCE.formatted(schema))) {
            claim.setString(1, receipt);
            claim.setLong(2, leaseUntil);
            claim.setString(3, id);
            claim.setLong(4, now);
            claim.setString(5, receipt);
            if (claim.executeUpdate() == 1) {
                return SourceClaim.TAKEN;
            }
        }
        try (PreparedStatement done = connection.prepareStatement(SOURCE_DONE.formatted(schema))) {
            done.setString(1, id);
            try (ResultSet rows = done.executeQuery()) {
                return rows.next() && rows.getBoolean(1) ? SourceClaim.SOURCE_DONE : SourceClaim.HELD;
            }
        }
    }

    static boolean holdsSource(Connection connection, String schema, String id, String receipt, long now)
            throws SQLException {
        try (PreparedStatement holds = connection.prepareStatement(HOLDS_SOURCE.formatted(schema))) {
            holds.setString(1, id);
            holds.setString(2, receipt);
            holds.setLong(3, now);
            try (ResultSet rows = holds.executeQuery()) {
                rows.next();
                return rows.getBoolean(1);
            }
        }
    }

    static void recordBatch(Connection connection, String schema, ExecutionBatch batch, long now)
            throws SQLException {
        if (!batch.deliveryIds().isEmpty()) {
            try (PreparedStatement add = connection.prepareStatement(ADD_MEMBERS.formatted(schema))) {
                add.setArray(1, connection.createArrayOf("bigint", batch.deliveryIds().toArray()));
                add.setString(2, batch.executionId());
                add.executeUpdate();
            }
        }
        try (PreparedStatement count = connection.prepareStatement(COUNT_BATCH.formatted(schema))) {
            count.setLong(1, batch.items());
            count.setLong(2, batch.dispatched());
            count.setLong(3, batch.unrouted());
            count.setLong(4, batch.inserted());
            count.setLong(5, batch.deduplicated());
            count.setString(6, batch.generation());
            count.setString(7, batch.executionId());
            count.executeUpdate();
        }
        touch(connection, schema, batch.executionId(), now);
    }

    static boolean completeSource(Connection connection, String schema, String id, String receipt, long now)
            throws SQLException {
        int changed;
        try (PreparedStatement complete = connection.prepareStatement(COMPLETE_SOURCE.formatted(schema))) {
            complete.setLong(1, now);
            complete.setString(2, id);
            complete.setString(3, receipt);
            changed = complete.executeUpdate();
        }
        if (changed == 1) {
            try (PreparedStatement mark = connection.prepareStatement(MARK_SOURCE_COMPLETED.formatted(schema))) {
                mark.setLong(1, now);
                mark.setString(2, id);
                mark.executeUpdate();
            }
        }
        return changed == 1;
    }

    static void releaseSource(Connection connection, String schema, String id, String receipt) throws SQLException {
        try (PreparedStatement release = connection.prepareStatement(RELEASE_SOURCE.formatted(schema))) {
            release.setString(1, id);
            release.setString(2, receipt);
            release.executeUpdate();
        }
    }

    static StoredExecution settle(Connection connection, String schema, String id, long now) throws SQLException {
        StoredExecution execution = read(connection, schema, id);
        if (execution.settled() && execution.completedAt() == null) {
            try (PreparedStatement finalize = connection.prepareStatement(FINALIZE.formatted(schema))) {
                finalize.setLong(1, now);
                finalize.setString(2, id);
                finalize.executeUpdate();
            }
            touch(connection, schema, id, now);
            execution = read(connection, schema, id);
        }
        return execution;
    }

    static boolean pending(Connection connection, String schema, String id) throws SQLException {
        try (PreparedStatement pending = connection.prepareStatement(PENDING.formatted(schema))) {
            pending.setString(1, id);
            pending.setString(2, id);
            try (ResultSet rows = pending.executeQuery()) {
                rows.next();
                boolean value = rows.getBoolean(1);
                return rows.wasNull() || value;
            }
        }
    }

    static ExecutionDeletion delete(Connection connection, String schema, String bus, String id,
                                    long completedBefore, long now, int limit) throws SQLException {
        Long completedAt;
        try (PreparedStatement find = connection.prepareStatement(FIND_OF_BUS.formatted(schema))) {
            find.setString(1, id);
            find.setString(2, bus);
            try (ResultSet rows = find.executeQuery()) {
                if (!rows.next()) {
                    return ExecutionDeletion.unchanged(ExecutionDeletion.Step.UNKNOWN);
                }
                completedAt = Columns.nullableLong(rows, 1);
            }
        }
        if (completedAt == null) {
            StoredExecution execution = settle(connection, schema, id, now);
            completedAt = execution.completedAt();
            if (completedAt == null) {
                return ExecutionDeletion.incomplete(execution);
            }
        }
        if (completedAt > completedBefore) {
            return ExecutionDeletion.unchanged(ExecutionDeletion.Step.RECENT);
        }
        int released;
        try (PreparedStatement release = connection.prepareStatement(RELEASE_MEMBERS.formatted(schema))) {
            release.setString(1, id);
            release.setString(2, id);
            release.setInt(3, limit);
            released = release.executeUpdate();
        }
        if (released < limit) {
            for (String sql : List.of(DELETE_RUNTIME, DELETE)) {
                try (PreparedStatement delete = connection.prepareStatement(sql.formatted(schema))) {
                    delete.setString(1, id);
                    delete.executeUpdate();
                }
            }
        }
        return ExecutionDeletion.released(released, limit);
    }

    static List<ExecutionRow> list(Connection connection, String schema, String bus) throws SQLException {
        try (PreparedStatement list = connection.prepareStatement(LIST.formatted(schema))) {
            list.setString(1, bus);
            try (ResultSet rows = list.executeQuery()) {
                List<ExecutionRow> executions = new ArrayList<>();
                while (rows.next()) {
                    executions.add(new ExecutionRow(rows.getString(1), rows.getString(2), rows.getString(3),
                            Columns.nullableLong(rows, 4), Columns.nullableLong(rows, 5), rows.getLong(6),
                            rows.getLong(7), rows.getLong(8), rows.getLong(9), rows.getLong(10)));
                }
                return executions;
            }
        }
    }

    private static void touch(Connection connection, String schema, String id, long now) throws SQLException {
        try (PreparedStatement touch = connection.prepareStatement(TOUCH.formatted(schema))) {
            touch.setLong(1, now);
            touch.setString(2, id);
            touch.executeUpdate();
        }
    }

    private static @Nullable String findId(Connection connection, String sql, String bus, String checkpoint,
                                           String key) throws SQLException {
        try (PreparedStatement find = connection.prepareStatement(sql)) {
            find.setString(1, bus);
            find.setString(2, checkpoint);
            find.setString(3, key);
            try (ResultSet rows = find.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }
}
