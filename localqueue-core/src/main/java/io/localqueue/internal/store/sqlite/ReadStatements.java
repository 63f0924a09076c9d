package io.localqueue.internal.store.sqlite;

import io.localqueue.QueueStats;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.RowStatus;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact reads of a queue: statistics, the list of queue names, and pages of ready jobs and of dead letters.
 */
final class ReadStatements {

    /**
     * Steps the queue's entries of the reference index one by one (about 30 ns each), the one exact count there is
     * without a counter that every write would have to keep.
     */
    static final String STATS = "SELECT status, COUNT(*) FROM messages WHERE queue = ? GROUP BY status";

    /**
     * Skips through the queue index, so the cost grows with the number of queues, not of jobs; with the queues whose
     * pause or limits are stored, so a paused queue that emptied is still named.
     */
    private static final String QUEUE_NAMES = """
            WITH RECURSIVE names(name) AS (
                SELECT MIN(queue) FROM messages
                UNION ALL
                SELECT (SELECT MIN(queue) FROM messages WHERE queue > names.name) FROM names WHERE name IS NOT NULL)
            SELECT name FROM names WHERE name IS NOT NULL
            UNION
            SELECT queue FROM queue_controls
             WHERE paused_at IS NOT NULL OR max_concurrent IS NOT NULL OR max_per_key IS NOT NULL
                OR rate_permits IS NOT NULL
            ORDER BY 1""";

    private static final String LIST_FAILED = """
            SELECT id, payload, attempts, last_error, failure_reason, failure_category, created_at, updated_at,
                   %s, concurrency_key
              FROM messages WHERE queue = ? AND status = 3 ORDER BY id LIMIT ? OFFSET ?"""
            .formatted(HeldPriority.decoded("priority"));

    /**
     * Walks the reference index in claim order (a queue that never used priorities has only the default one), so a
     * page costs its own rows and the offset, never a sort.
     */
    static final String LIST_READY = """
            SELECT id, payload, attempts, available_at, created_at, last_error, %s, concurrency_key
              FROM messages WHERE queue = ? AND status = 0 ORDER BY available_at, lease_until, id LIMIT ? OFFSET ?"""
            .formatted(HeldPriority.decoded("priority"));

    /**
     * The page of a queue that uses priorities, in claim order (priority, due time, id): the rows of the priority
     * index and the rows a claim has not yet given the default priority, each walk stopping after the page's end; the
     * jobs a full concurrency key holds come after every other, as claims without a per-key limit reach them.
     */
    static final String LIST_READY_BY_PRIORITY = """
            SELECT id, payload, attempts, available_at, created_at, last_error, %s, concurrency_key FROM (
                SELECT * FROM (SELECT id, payload, attempts, available_at, created_at, last_error, priority AS p,
                                      concurrency_key
                                 FROM messages INDEXED BY idx_messages_priority
                                WHERE queue = ?1 AND status = 0 AND priority IS NOT NULL
                                ORDER BY priority, available_at, id LIMIT ?2 + ?3)
                UNION ALL
                SELECT * FROM (SELECT id, payload, attempts, available_at, created_at, last_error, 0 AS p,
                                      concurrency_key
                                 FROM messages INDEXED BY idx_messages_queue_status
                                WHERE queue = ?1 AND status = 0 AND priority IS NULL
                                ORDER BY available_at, lease_until, id LIMIT ?2 + ?3))
             ORDER BY p, available_at, id LIMIT ?2 OFFSET ?3""".formatted(HeldPriority.decoded("p"));

    private ReadStatements() {
    }

    static QueueStats stats(Session session, String queue) throws SQLException {
        long[] counts = new long[4];
        session.query(STATS, statement -> statement.setString(1, queue), rows -> {
            while (rows.next()) {
                int status = rows.getInt(1);
                if (status >= 0 && status < counts.length) {
                    counts[status] = rows.getLong(2);
                }
            }
            return null;
        });
        return new QueueStats(counts[RowStatus.READY], counts[RowStatus.LEASED],
                counts[RowStatus.ACKED], counts[RowStatus.FAILED]);
    }

    static List<String> queueNames(Session session) throws SQLException {
        return session.query(QUEUE_NAMES, statement -> { }, rows -> {
            List<String> names = new ArrayList<>();
            while (rows.next()) {
                names.add(rows.getString(1));
            }
            return names;
        });
    }

    static List<FailedRow> listFailed(Session session, String queue, int limit, int offset) throws SQLException {
        return session.query(LIST_FAILED, statement -> {
            statement.setString(1, queue);
            statement.setInt(2, limit);
            statement.setInt(3, offset);
        }, rows -> {
            List<FailedRow> failed = new ArrayList<>();
            while (rows.next()) {
                failed.add(new FailedRow(rows.getLong(1), rows.getBytes(2), rows.getInt(3), rows.getString(4),
                        rows.getString(5), rows.getString(6), rows.getLong(7), rows.getLong(8), rows.getInt(9),
                        rows.getString(10)));
            }
            return failed;
        });
    }

    static List<ReadyRow> listReady(Session session, String queue, int limit, int offset) throws SQLException {
        boolean prioritized = PriorityStatements.used(session, queue);
        return session.query(prioritized ? LIST_READY_BY_PRIORITY : LIST_READY, statement -> {
            statement.setString(1, queue);
            statement.setInt(2, limit);
            statement.setInt(3, offset);
        }, rows -> {
            List<ReadyRow> ready = new ArrayList<>();
            while (rows.next()) {
                ready.add(new ReadyRow(rows.getLong(1), rows.getBytes(2), rows.getInt(3), rows.getLong(4),
                        rows.getLong(5), rows.getString(6), rows.getInt(7), rows.getString(8)));
            }
            return ready;
        });
    }
}
