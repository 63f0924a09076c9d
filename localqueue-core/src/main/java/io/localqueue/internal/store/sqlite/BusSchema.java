package io.localqueue.internal.store.sqlite;

import java.sql.SQLException;
import java.util.List;

/**
 * The event bus's tables, declared as the Python library 1.4 declares them, so either library's bus works on a file
 * the other created: ingestion checkpoints, executions, their membership (whose {@code message_id} restricts deletes,
 * so a purge cannot remove a delivery an execution reports on), the edges from a handler's delivery to the ones it
 * emitted, and the executions' runtime state.
 */
final class BusSchema {

    private static final List<String> TABLES = List.of(
            """
            CREATE TABLE IF NOT EXISTS ingestion_checkpoints (
                bus_name           TEXT NOT NULL,
                checkpoint_name    TEXT NOT NULL,
                cursor             TEXT NOT NULL,
                source_fingerprint TEXT,
                generation         TEXT NOT NULL,
                version            INTEGER NOT NULL,
                items_committed    INTEGER NOT NULL,
                batches_committed  INTEGER NOT NULL,
                created_at         INTEGER NOT NULL,
                updated_at         INTEGER NOT NULL,
                PRIMARY KEY (bus_name, checkpoint_name)
            )""",
            """
            CREATE TABLE IF NOT EXISTS event_bus_executions (
                execution_id     TEXT PRIMARY KEY,
                bus_name         TEXT NOT NULL,
                source_name      TEXT NOT NULL,
                checkpoint_name  TEXT,
                source_completed INTEGER NOT NULL DEFAULT 0 CHECK (source_completed IN (0, 1)),
                created_at       INTEGER NOT NULL,
                updated_at       INTEGER NOT NULL
            )""",
            """
            CREATE TABLE IF NOT EXISTS event_bus_execution_deliveries (
                execution_id TEXT NOT NULL,
                message_id   INTEGER NOT NULL,
                PRIMARY KEY (execution_id, message_id),
                FOREIGN KEY (execution_id) REFERENCES event_bus_executions(execution_id) ON DELETE CASCADE,
                FOREIGN KEY (message_id) REFERENCES messages(id)
            )""",
            """
            CREATE INDEX IF NOT EXISTS idx_event_bus_execution_deliveries_message
                ON event_bus_execution_deliveries(message_id)""",
            """
            CREATE TABLE IF NOT EXISTS event_bus_delivery_edges (
                parent_message_id INTEGER NOT NULL,
                child_message_id  INTEGER NOT NULL,
                PRIMARY KEY (parent_message_id, child_message_id),
                FOREIGN KEY (parent_message_id) REFERENCES messages(id) ON DELETE CASCADE,
                FOREIGN KEY (child_message_id) REFERENCES messages(id) ON DELETE CASCADE
            )""",
            """
            CREATE INDEX IF NOT EXISTS idx_event_bus_delivery_edges_child
                ON event_bus_delivery_edges(child_message_id)""",
            """
            CREATE TABLE IF NOT EXISTS event_bus_execution_runtime (
                execution_id            TEXT PRIMARY KEY,
                bus_name                TEXT NOT NULL,
                checkpoint_name         TEXT NOT NULL,
                source_fingerprint      TEXT NOT NULL,
                checkpoint_generation   TEXT,
                source_receipt          TEXT,
                source_lease_until      INTEGER,
                source_completed_at     INTEGER,
                completed_at            INTEGER,
                items_committed         INTEGER NOT NULL DEFAULT 0,
                events_dispatched       INTEGER NOT NULL DEFAULT 0,
                events_unrouted         INTEGER NOT NULL DEFAULT 0,
                deliveries_inserted     INTEGER NOT NULL DEFAULT 0,
                deliveries_deduplicated INTEGER NOT NULL DEFAULT 0,
                batches_committed       INTEGER NOT NULL DEFAULT 0,
                FOREIGN KEY (execution_id) REFERENCES event_bus_executions(execution_id) ON DELETE CASCADE
            )""",
            """
            CREATE UNIQUE INDEX IF NOT EXISTS idx_execution_runtime_bound
                ON event_bus_execution_runtime(bus_name, checkpoint_name, checkpoint_generation)
                WHERE checkpoint_generation IS NOT NULL""",
            """
            CREATE UNIQUE INDEX IF NOT EXISTS idx_execution_runtime_pending
                ON event_bus_execution_runtime(bus_name, checkpoint_name, source_fingerprint)
                WHERE checkpoint_generation IS NULL""",
            """
            CREATE INDEX IF NOT EXISTS idx_execution_runtime_claim
                ON event_bus_execution_runtime(execution_id, source_completed_at, source_lease_until)""");

    private BusSchema() {
    }

    /** Creates whatever is missing, inside the caller's write transaction; each statement is idempotent. */
    static void create(Session session) throws SQLException {
        for (String statement : TABLES) {
            session.execute(statement);
        }
    }
}
