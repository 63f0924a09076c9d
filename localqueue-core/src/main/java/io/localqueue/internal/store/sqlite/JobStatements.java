package io.localqueue.internal.store.sqlite;

import io.localqueue.JobState;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The reads an operator browses a queue with: one job by id, keyset pages of one state, and counts that stop at a
 * cap. Each page walks an index in its own order from the cursor and stops at the page's end, so a page costs its
 * rows, whatever the backlog and however deep the page.
 */
final class JobStatements {

    private static final String COLUMNS = """
            id, job_id, status, payload, (SELECT headers FROM message_headers WHERE message_id = messages.id),
            attempts, max_attempts, COALESCE(priority, 0), %s, concurrency_key, available_at, lease_until,
            created_at, updated_at, last_error, failure_reason""".formatted(HeldPriority.decoded("priority"));

    private static final String JOB = "SELECT " + COLUMNS + " FROM messages WHERE id = ? AND queue = ?";

    /**
     * The jobs of a queue put in a range of ids, by a walk of the rowid (no index: one that starts with the queue would
     * read every row of the queue to sort them by id).
     */
    static final String PUT = "SELECT " + COLUMNS + " FROM messages NOT INDEXED WHERE id > ?1 AND id <= ?2 "
            + "AND queue = ?3 ORDER BY id LIMIT ?4";

    /** The jobs of a queue among ids given as one JSON array, each found by its rowid. */
    static final String BY_IDS = "SELECT " + COLUMNS + " FROM messages WHERE id IN (SELECT value FROM "
            + "json_each(?1)) AND queue = ?2 ORDER BY id";

    /** The last id, from the rowid's end. */
    private static final String LAST_ID = "SELECT COALESCE(MAX(id), 0) FROM messages";

    /** The due-time condition of a state among waiting rows: {@code ?2} is now. */
    private static final String DUE = " AND available_at <= ?2";
    private static final String NOT_DUE = " AND available_at > ?2";

    /**
     * Waiting rows with a stored priority (the queue's prioritized and held rows), from the priority index in claim
     * order after the cursor ({@code ?3} priority, {@code ?4} due time, {@code ?5} id).
     */
    private static final String WAITING_WITH_PRIORITY = """
            SELECT * FROM (SELECT %1$s FROM messages INDEXED BY idx_messages_priority
                            WHERE queue = ?1 AND status = 0 AND priority IS NOT NULL
                              AND (priority, available_at, id) > (?3, ?4, ?5)%%1$s
                            ORDER BY priority, available_at, id LIMIT ?6)""".formatted(COLUMNS);

    /**
     * Waiting rows without a priority (priority 0 in claim order, which a claim of a prioritized queue gives them), in
     * due order: {@code %%2$s} is the cursor's condition when the cursor stands among them.
     */
    private static final String WAITING_WITHOUT_PRIORITY = """
            SELECT * FROM (SELECT %1$s FROM messages INDEXED BY idx_messages_queue_status
                            WHERE queue = ?1 AND status = 0 AND priority IS NULL%%2$s%%1$s
                            ORDER BY available_at, id LIMIT ?6)""".formatted(COLUMNS);

    private static final String AFTER_DUE_TIME = " AND available_at >= ?4 AND (available_at > ?4 OR id > ?5)";

    /** A page of waiting rows: both walks, merged in claim order; {@code %%1$s} the state's due-time condition. */
    private static final String WAITING = "SELECT * FROM (" + WAITING_WITH_PRIORITY + " UNION ALL "
            + WAITING_WITHOUT_PRIORITY + ") ORDER BY 8, 11, 1 LIMIT ?6";

    /** {@link #WAITING} with a cursor past every row without a priority: the priority index alone. */
    private static final String WAITING_PRIORITIZED = WAITING_WITH_PRIORITY;

    /** A page of leased, acknowledged or dead rows ({@code ?2} the status), in due order after the cursor. */
    private static final String SETTLED = """
            SELECT %s FROM messages INDEXED BY idx_messages_queue_status
             WHERE queue = ?1 AND status = ?2 AND available_at >= ?4 AND (available_at > ?4 OR id > ?5)
             ORDER BY available_at, id LIMIT ?6""".formatted(COLUMNS);

    /** Counts the rows of one status up to a cap ({@code ?3}), stepping no further through the index. */
    private static final String COUNT = """
            SELECT COUNT(*) FROM (SELECT 1 FROM messages INDEXED BY idx_messages_queue_status
                                   WHERE queue = ?1 AND status = ?4%s LIMIT ?3)""";

    private JobStatements() {
    }

    static @Nullable JobRow job(Session session, String queue, long id) throws SQLException {
        return session.query(JOB, statement -> {
            statement.setLong(1, id);
            statement.setString(2, queue);
        }, rows -> rows.next() ? JobRow.read(rows) : null);
    }

    static List<JobRow> put(Session session, String queue, long afterId, long throughId, int limit)
            throws SQLException {
        return session.query(PUT, statement -> {
            statement.setLong(1, afterId);
            statement.setLong(2, throughId);
            statement.setString(3, queue);
            statement.setInt(4, limit);
        }, JobStatements::rows);
    }

    static List<JobRow> byIds(Session session, String queue, long[] ids) throws SQLException {
        return session.query(BY_IDS, statement -> {
            statement.setString(1, Arrays.toString(ids));
            statement.setString(2, queue);
        }, JobStatements::rows);
    }

    static long lastId(Session session) throws SQLException {
        Long last = session.queryLong(LAST_ID, statement -> { });
        return last == null ? 0 : last;
    }

    private static List<JobRow> rows(ResultSet rows) throws SQLException {
        List<JobRow> read = new ArrayList<>();
        while (rows.next()) {
            read.add(JobRow.read(rows));
        }
        return read;
    }

    static List<JobRow> page(Session session, JobPageRequest request) throws SQLException {
        String sql = request.inClaimOrder() ? waiting(request) : SETTLED;
        return session.query(sql, statement -> {
            statement.setString(1, request.queue());
            statement.setLong(2, request.inClaimOrder() ? request.now() : request.status());
            statement.setInt(3, request.afterPriority());
            statement.setLong(4, request.afterDueAt());
            statement.setLong(5, request.afterId());
            statement.setInt(6, request.limit());
        }, JobStatements::rows);
    }

    /**
     * The statement of a page of waiting rows: rows without a priority come first unless the cursor has passed them,
     * and after the cursor's due time and id when it stands among them, so each walk starts where the cursor is.
     */
    private static String waiting(JobPageRequest request) {
        String due = request.state() == JobState.READY ? DUE : NOT_DUE;
        if (request.afterPriority() > 0) {
            return WAITING_PRIORITIZED.formatted(due);
        }
        return WAITING.formatted(due, request.afterPriority() == 0 ? AFTER_DUE_TIME : "");
    }

    static long count(Session session, String queue, JobState state, long now, long cap) throws SQLException {
        String sql = COUNT.formatted(switch (state) {
            case READY -> DUE;
            case DELAYED -> NOT_DUE;
            default -> "";
        });
        JobPageRequest request = new JobPageRequest(queue, state, now, null, 1);
        Long counted = session.queryLong(sql, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
            statement.setLong(3, cap);
            statement.setInt(4, request.status());
        });
        return counted == null ? 0 : counted;
    }

}
