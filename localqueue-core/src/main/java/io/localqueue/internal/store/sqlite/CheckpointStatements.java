package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.StoredCheckpoint;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Ingestion checkpoints in the Python library's table {@code ingestion_checkpoints}: read, created with a random
 * generation, advanced under a compare-and-swap of generation and version, and deleted, inside the caller's write
 * transaction (reads too, so that the swap judges what the same transaction read).
 */
final class CheckpointStatements {

    private static final String READ = """
            SELECT cursor, source_fingerprint, generation, version, items_committed, batches_committed, created_at,
                   updated_at
              FROM ingestion_checkpoints WHERE bus_name = ? AND checkpoint_name = ?""";

    /** A new incarnation: a random generation, as the Python library makes it, and version 1. */
    private static final String CREATE = """
            INSERT INTO ingestion_checkpoints (bus_name, checkpoint_name, cursor, source_fingerprint, generation,
                                               version, items_committed, batches_committed, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, lower(hex(randomblob(16))), 1, ?5, 1, ?6, ?6)
            ON CONFLICT DO NOTHING""";

    /** Advances the checkpoint only when it is still the incarnation and version the ingester read. */
    private static final String ADVANCE = """
            UPDATE ingestion_checkpoints
               SET cursor = ?5, version = version + 1, items_committed = items_committed + ?6,
                   batches_committed = batches_committed + 1, updated_at = ?7
             WHERE bus_name = ?1 AND checkpoint_name = ?2 AND generation = ?3 AND version = ?4""";

    private static final String DELETE =
            "DELETE FROM ingestion_checkpoints WHERE bus_name = ? AND checkpoint_name = ?";

    private CheckpointStatements() {
    }

    static @Nullable StoredCheckpoint read(Session session, String bus, String name) throws SQLException {
        return session.query(READ, statement -> {
            statement.setString(1, bus);
            statement.setString(2, name);
        }, rows -> rows.next() ? new StoredCheckpoint(rows.getString(1), rows.getString(2), rows.getString(3),
                rows.getLong(4), rows.getLong(5), rows.getLong(6), rows.getLong(7), rows.getLong(8)) : null);
    }

    static @Nullable StoredCheckpoint advance(Session session, String bus, String name,
                                              @Nullable StoredCheckpoint expected, String cursor,
                                              @Nullable String fingerprint, long items, long now)
            throws SQLException {
        int changed;
        if (expected == null) {
            changed = session.update(CREATE, statement -> {
                statement.setString(1, bus);
                statement.setString(2, name);
                statement.setString(3, cursor);
                statement.setString(4, fingerprint);
                statement.setLong(5, items);
                statement.setLong(6, now);
            });
        } else {
            changed = session.update(ADVANCE, statement -> {
                statement.setString(1, bus);
                statement.setString(2, name);
                statement.setString(3, expected.generation());
                statement.setLong(4, expected.version());
                statement.setString(5, cursor);
                statement.setLong(6, items);
                statement.setLong(7, now);
            });
        }
        return changed == 1 ? read(session, bus, name) : null;
    }

    static boolean delete(Session session, String bus, String name) throws SQLException {
        return session.update(DELETE, statement -> {
            statement.setString(1, bus);
            statement.setString(2, name);
        }) == 1;
    }
}
