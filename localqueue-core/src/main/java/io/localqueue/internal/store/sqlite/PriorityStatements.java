package io.localqueue.internal.store.sqlite;

import java.sql.SQLException;

/**
 * Which queues use priorities, and the default priority given to their rows put without one. A queue is recorded in
 * {@code queue_priorities} by its first put with a priority other than the default; from then on its new rows carry
 * one (0 by default, which the insert itself reads) and so enter the priority index, which claims and pages of ready
 * jobs walk. Rows put without one (before that put, or by the Python library, which names no priority) get 0 from
 * the claims' sweep, which walks the ids put since the last sweep by rowid. A queue that never used a priority pays
 * a lookup inside its claim statement, and one read more only when the claim found nothing due.
 *
 * <p>Once a connection's sweep found nothing left, its claims look again only after {@link #SWEEP_AGAIN_AFTER_MILLIS}
 * or when the priority index has fewer due rows than they ask for: only another library's puts (or this library's
 * before the queue's first prioritized put) lack a priority, and a read before every claim cost about 5 % of a claim
 * and ack on a large backlog.
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

    /**
     * How long a connection that found nothing left to sweep claims without looking again, unless the claim comes up
     * short: the longest a job put without a priority waits behind less urgent ones.
     */
    static final long SWEEP_AGAIN_AFTER_MILLIS = 50;

    private PriorityStatements() {
    }

    /** Tells whether the queue uses priorities, reading only the first time this connection finds that it does. */
    static boolean used(Session session, String queue) throws SQLException {
        if (session.knownPrioritized(queue)) {
            return true;
        }
        boolean used = session.queryLong(SWEPT_THROUGH, statement -> statement.setString(1, queue)) != null;
        if (used) {
            session.rememberPrioritized(queue);
        }
        return used;
    }

    /** Records that the queue uses priorities, if it was not already known to. */
    static void start(Session session, String queue) throws SQLException {
        if (!used(session, queue)) {
            session.update(START, statement -> statement.setString(1, queue));
            session.rememberPrioritized(queue);
        }
    }

    /** What a sweep found. */
    enum Sweep {
        /** The queue never used priorities; nothing was read but that. */
        NOT_USED,
        /** Every row of the queue put so far has a priority. */
        CAUGHT_UP,
        /** Some ids put since the last sweep were swept; more may be left. */
        SWEPT
    }

    /**
     * Gives the queue's rows without a priority put since the last sweep (at most {@link #SWEEP_IDS} ids) the default,
     * when the queue uses priorities.
     */
    static Sweep sweep(Session session, String queue) throws SQLException {
        long[] sweptAndLast = session.query(SWEPT_AND_LAST, statement -> statement.setString(1, queue),
                rows -> rows.next() ? new long[] {rows.getLong(1), rows.getLong(2)} : null);
        if (sweptAndLast == null) {
            return Sweep.NOT_USED;
        }
        long swept = sweptAndLast[0];
        long last = sweptAndLast[1];
        if (last <= swept) {
            return Sweep.CAUGHT_UP;
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
        return Sweep.SWEPT;
    }
}
