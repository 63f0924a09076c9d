package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.QueuePause;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The pause of a queue for every process on the file: a row of {@code queue_controls} with a pause time. Claims and
 * probes read it inside their own statement ({@link #PAUSED}), so a paused queue costs no statement more.
 */
final class PauseStatements {

    /** A term that holds while the queue bound at {@code ?%d} is paused; claims and probes put it in their statement. */
    static final String PAUSED = "EXISTS (SELECT 1 FROM queue_controls WHERE queue = ?%d AND paused_at IS NOT NULL)";

    /** Pauses a running queue; a paused one keeps its first pause, and no row changes. */
    private static final String PAUSE = """
            INSERT INTO queue_controls (queue, paused_at, paused_by) VALUES (?1, ?2, ?3)
            ON CONFLICT (queue) DO UPDATE SET paused_at = ?2, paused_by = ?3 WHERE paused_at IS NULL""";

    private static final String RESUME = """
            UPDATE queue_controls SET paused_at = NULL, paused_by = NULL WHERE queue = ? AND paused_at IS NOT NULL""";

    private static final String PAUSE_OF =
            "SELECT paused_at, paused_by FROM queue_controls WHERE queue = ? AND paused_at IS NOT NULL";

    private PauseStatements() {
    }

    /** The {@link #PAUSED} term with the queue at parameter {@code parameter}. */
    static String paused(int parameter) {
        return PAUSED.formatted(parameter);
    }

    static boolean pause(Session session, String queue, String by, long now) throws SQLException {
        return session.update(PAUSE, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
            statement.setString(3, by);
        }) == 1;
    }

    static boolean resume(Session session, String queue) throws SQLException {
        return session.update(RESUME, statement -> statement.setString(1, queue)) == 1;
    }

    static @Nullable QueuePause pauseOf(Session session, String queue) throws SQLException {
        return session.query(PAUSE_OF, statement -> statement.setString(1, queue),
                rows -> rows.next() ? new QueuePause(rows.getLong(1), rows.getString(2)) : null);
    }
}
