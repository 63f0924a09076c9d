package io.localqueue.internal.store.sqlite;

import java.sql.SQLException;

/**
 * Which queues use priorities, and the default priority given to their rows put without one. A queue is recorded in
 * {@code queue_priorities} by its first put with a priority other than the default; from then on its new rows carry
 * one (0 by default, which the insert itself reads) and so enter the priority index, which claims and pages of ready
 * jobs walk. Rows put without one (before that put, or by the Python library, which names no priority) get 0 from
 * the claims' sweep, which walks the ids put since the last sweep by rowid. A queue that never used a priority pays
 * a lookup inside its claim statement, and one read more only when the claim found nothing due.
 */
final class PriorityStatements {

    private static final String SWEPT_THROUGH = "SELECT swept_through FROM queue_priorities WHERE queue = ?";

    /** How far the sweep went and the largest id, in one read; no row for a queue that never used priorities. */
    private static final String SWEPT_AND_LAST = """
            SELECT swept_through, (SELECT COALESCE(MAX(id), 0) FROM messages) FROM queue_priorities WHERE queue = ?""";

    /** Records a queue's first prioritized put, with every id before it still to sweep. */
    private static final String START =
            "INSERT INTO queue_priorities (queue, swept_through) VALUES (?, 0) ON CONFLICT DO NOTHING";

    /**
     * Gives the unfinished rows of the queue without a priority the default, 0, in one range of ids, walked by rowid
     * (an acknowledged row never comes back, so it keeps none).
     */
    static final String SWEEP = """
            UPDATE messages NOT INDEXED SET priority = 0
             WHERE id > ?2 AND id <= ?3 AND queue = ?1 AND status <> 2 AND priority IS NULL""";

    private static final String SWEPT = "UPDATE queue_priorities SET swept_through = ?2 WHERE queue = ?1";

    /** At most this many ids are swept in one claim, so a queue's first prioritized claims stay short. */
    static final long SWEEP_IDS = 50_000;

    private PriorityStatements() {
    }

    /** Tells whether the queue uses priorities. */
    static boolean used(Session session, String queue) throws SQLException {
        return session.queryLong(SWEPT_THROUGH, statement -> statement.setString(1, queue)) != null;
    }

    /** Records that the queue uses priorities, if it was not already. */
    static void start(Session session, String queue) throws SQLException {
        session.update(START, statement -> statement.setString(1, queue));
    }

    /**
     * Gives the queue's rows without a priority put since the last sweep (at most {@link #SWEEP_IDS} ids) the default,
     * when the queue uses priorities.
     *
     * @return false when the queue never used priorities, and nothing was read but that
     */
    static boolean sweepIfUsed(Session session, String queue) throws SQLException {
        long[] sweptAndLast = session.query(SWEPT_AND_LAST, statement -> statement.setString(1, queue),
                rows -> rows.next() ? new long[] {rows.getLong(1), rows.getLong(2)} : null);
        if (sweptAndLast == null) {
            return false;
        }
        long swept = sweptAndLast[0];
        long last = sweptAndLast[1];
        if (last <= swept) {
            return true;
        }
        long through = Math.min(last, swept + SWEEP_IDS);
        session.update(SWEEP, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, swept);
            statement.setLong(3, through);
        });
        session.update(SWEPT, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, through);
        });
        return true;
    }
}
