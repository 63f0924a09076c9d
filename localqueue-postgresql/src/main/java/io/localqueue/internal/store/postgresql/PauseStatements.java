package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.QueuePause;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The pause of a queue for every host on the schema: a row of {@code queue_controls} with a pause time. Claims and
 * probes read it inside their own statement ({@link ClaimStatements#PAUSED}).
 */
final class PauseStatements {

    /** Pauses a running queue; a paused one keeps its first pause, and no row changes. */
    private static final String PAUSE = """
            INSERT INTO %1$s.queue_controls (queue, paused_at, paused_by) VALUES (?, ?, ?)
            ON CONFLICT (queue) DO UPDATE SET paused_at = EXCLUDED.paused_at, paused_by = EXCLUDED.paused_by
             WHERE queue_controls.paused_at IS NULL""";

    private static final String RESUME = """
            UPDATE %1$s.queue_controls SET paused_at = NULL, paused_by = NULL
             WHERE queue = ? AND paused_at IS NOT NULL""";

    private static final String PAUSE_OF =
            "SELECT paused_at, paused_by FROM %1$s.queue_controls WHERE queue = ? AND paused_at IS NOT NULL";

    private PauseStatements() {
    }

    static boolean pause(Connection connection, String schema, String queue, String by, long now)
            throws SQLException {
        try (PreparedStatement pause = connection.prepareStatement(PAUSE.formatted(schema))) {
            pause.setString(1, queue);
            pause.setLong(2, now);
            pause.setString(3, by);
            return pause.executeUpdate() == 1;
        }
    }

    static boolean resume(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement resume = connection.prepareStatement(RESUME.formatted(schema))) {
            resume.setString(1, queue);
            return resume.executeUpdate() == 1;
        }
    }

    static @Nullable QueuePause pauseOf(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(PAUSE_OF.formatted(schema))) {
            read.setString(1, queue);
            try (ResultSet rows = read.executeQuery()) {
                return rows.next() ? new QueuePause(rows.getLong(1), rows.getString(2)) : null;
            }
        }
    }
}
