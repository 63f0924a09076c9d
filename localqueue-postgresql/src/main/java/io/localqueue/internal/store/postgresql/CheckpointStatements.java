package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.StoredCheckpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Ingestion checkpoints on PostgreSQL, in table {@code ingestion_checkpoints}: read, created with a random
 * generation, advanced under a compare-and-swap of generation and version, and deleted, inside the caller's
 * transaction. A swap that races another one waits for it, then finds the version moved and changes nothing.
 */
final class CheckpointStatements {

    private static final String COLUMNS = """
            cursor, source_fingerprint, generation, version, items_committed, batches_committed, created_at, \
            updated_at""";

    private static final String READ = "SELECT " + COLUMNS
            + " FROM %1$s.ingestion_checkpoints WHERE bus_name = ? AND checkpoint_name = ?";

    /** A new incarnation: a random generation of 32 hexadecimal digits, as the Python library makes it, version 1. */
    private static final String CREATE = """
            INSERT INTO %1$s.ingestion_checkpoints (bus_name, checkpoint_name, cursor, source_fingerprint, generation,
                                                    version, items_committed, batches_committed, created_at,
                                                    updated_at)
            VALUES (?, ?, ?, ?, replace(gen_random_uuid()::text, '-', ''), 1, ?, 1, ?, ?)
            ON CONFLICT DO NOTHING
            RETURNING\s""" + COLUMNS;

    /** Advances the checkpoint only when it is still the incarnation and version the ingester read. */
    private static final String ADVANCE = """
            UPDATE %1$s.ingestion_checkpoints
               SET cursor = ?, version = version + 1, items_committed = items_committed + ?,
                   batches_committed = batches_committed + 1, updated_at = ?
             WHERE bus_name = ? AND checkpoint_name = ? AND generation = ? AND version = ?
            RETURNING\s""" + COLUMNS;

    private static final String DELETE =
            "DELETE FROM %1$s.ingestion_checkpoints WHERE bus_name = ? AND checkpoint_name = ?";

    private CheckpointStatements() {
    }

    static @Nullable StoredCheckpoint read(Connection connection, String schema, String bus, String name)
            throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ.formatted(schema))) {
            read.setString(1, bus);
            read.setString(2, name);
            return one(read);
        }
    }

    static @Nullable StoredCheckpoint advance(Connection connection, String schema, String bus, String name,
                                              @Nullable StoredCheckpoint expected, String cursor,
                                              @Nullable String fingerprint, long items, long now)
            throws SQLException {
        if (expected == null) {
            try (PreparedStatement create = connection.prepareStatement(CREATE.formatted(schema))) {
                create.setString(1, bus);
                create.setString(2, name);
                create.setString(3, cursor);
                create.setString(4, fingerprint);
                create.setLong(5, items);
                create.setLong(6, now);
                create.setLong(7, now);
                return one(create);
            }
        }
        try (PreparedStatement advance = connection.prepareStatement(ADVANCE.formatted(schema))) {
            advance.setString(1, cursor);
            advance.setLong(2, items);
            advance.setLong(3, now);
            advance.setString(4, bus);
            advance.setString(5, name);
            advance.setString(6, expected.generation());
            advance.setLong(7, expected.version());
            return one(advance);
        }
    }

    static boolean delete(Connection connection, String schema, String bus, String name) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(DELETE.formatted(schema))) {
            delete.setString(1, bus);
            delete.setString(2, name);
            return delete.executeUpdate() == 1;
        }
    }

    private static @Nullable StoredCheckpoint one(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            return rows.next() ? new StoredCheckpoint(rows.getString(1), rows.getString(2), rows.getString(3),
                    rows.getLong(4), rows.getLong(5), rows.getLong(6), rows.getLong(7), rows.getLong(8)) : null;
        }
    }
}
