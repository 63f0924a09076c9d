package io.localqueue.internal.store.postgresql;

import io.localqueue.JobState;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.RowStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The reads an operator browses a queue with on PostgreSQL: one job by id, keyset pages of one state, and counts that
 * stop at a cap. A page of waiting jobs ({@link JobState#READY}, {@link JobState#DELAYED}) walks the claim-order
 * index priority by priority (one seek finds each priority at or after the cursor's, one more starts its walk at the
 * cursor or at the due time that divides the states) and stops at the page's end: it costs its rows and a few seeks
 * per priority, whatever the backlog of either state. A page of dead letters walks their own index from the cursor
 * and costs its rows. A page of leases reads the queue's leased rows and sorts them, which costs as many as its
 * consumers hold at once; a page of acknowledged rows reads and sorts the queue's acknowledged rows, which retention
 * bounds. A count steps through no more than its cap of rows.
 */
final class JobStatements {

    private static final String COLUMNS = """
            m.id, m.job_id, m.status, m.payload,
            (SELECT headers FROM %1$s.message_headers AS h WHERE h.message_id = m.id), m.attempts, m.max_attempts,
            m.priority, {decoded}, m.concurrency_key, m.available_at, m.lease_until, m.created_at, m.updated_at,
            m.last_error, m.failure_reason""".replace("{decoded}", HeldPriority.decoded("m.priority"));

    private static final String JOB = "SELECT " + COLUMNS + " FROM %1$s.messages AS m WHERE m.id = ? AND m.queue = ?";

    /** The jobs of a queue put in a range of ids, walking the primary key. Binds the range's ends, the queue, limit. */
    static final String PUT = "SELECT " + COLUMNS + " FROM %1$s.messages AS m WHERE m.id > ? AND m.id <= ? "
            + "AND m.queue = ? ORDER BY m.id LIMIT ?";

    /** The jobs of a queue among ids given as one array, each found by the primary key. Binds the ids, the queue. */
    static final String BY_IDS = "SELECT " + COLUMNS + " FROM %1$s.messages AS m WHERE m.id = ANY (?) "
            + "AND m.queue = ? ORDER BY m.id";

    /** The last id, from the primary key's end. */
    private static final String LAST_ID = "SELECT COALESCE(max(id), 0) FROM %1$s.messages";

    /**
     * The priorities of a queue's waiting rows from the cursor's on, ascending, each found by one seek of the
     * claim-order index (a loose scan). Binds the queue, the cursor's priority, the queue.
     */
    private static final String LEVELS = """
            WITH RECURSIVE levels (priority) AS (
                (SELECT priority FROM %1$s.messages WHERE queue = ? AND status = 0 AND priority >= ?::integer
                  ORDER BY priority LIMIT 1)
                UNION ALL
                SELECT (SELECT r.priority FROM %1$s.messages AS r
                         WHERE r.queue = ? AND r.status = 0 AND r.priority > levels.priority
                         ORDER BY r.priority LIMIT 1)
                  FROM levels WHERE levels.priority IS NOT NULL)
            """;

    /**
     * Each priority's waiting rows in due order after a bound, the cursor's at the cursor's priority and the state's
     * at the others, until the limit: the priorities come ascending and each walk in due order, so the rows come in
     * claim order without a sort, as a claim's do. {@code {due}} is the state's due-time condition. Binds the queue,
     * the due-time condition's now when it has one, the cursor's priority, the cursor's due time, the state's, the
     * cursor's priority, the cursor's id, the state's, the limit, the limit.
     */
    private static final String WALK = """
            SELECT {columns} FROM levels CROSS JOIN LATERAL (
                SELECT r.* FROM %1$s.messages AS r
                 WHERE r.queue = ? AND r.status = 0 AND r.priority = levels.priority{due}
                   AND (r.available_at, r.id)
                       > (CASE WHEN levels.priority = ?::integer THEN ?::bigint ELSE ?::bigint END,
                          CASE WHEN levels.priority = ?::integer THEN ?::bigint ELSE ?::bigint END)
                 ORDER BY r.available_at, r.id LIMIT ?) AS m
             WHERE levels.priority IS NOT NULL LIMIT ?""";

    /** Among waiting rows, the due ones; the bound of delayed ones is their walk's start instead. */
    private static final String DUE = " AND r.available_at <= ?";

    private static final String READY_PAGE = LEVELS + WALK.replace("{columns}", COLUMNS).replace("{due}", DUE);
    private static final String DELAYED_PAGE = LEVELS + WALK.replace("{columns}", COLUMNS).replace("{due}", "");
    private static final String READY_COUNT = LEVELS + "SELECT count(*) FROM ("
            + WALK.replace("{columns}", "1").replace("{due}", DUE) + ") AS counted";
    private static final String DELAYED_COUNT = LEVELS + "SELECT count(*) FROM ("
            + WALK.replace("{columns}", "1").replace("{due}", "") + ") AS counted";

    /**
     * A page of rows of one status in due order after the cursor: {@code {status}} is written as a literal, so that
     * the prepared statement's generic plan still reads the partial index of that state. Binds the queue, the
     * cursor's due time and id, the limit.
     */
    private static final String SETTLED_PAGE = """
            SELECT {columns} FROM %1$s.messages AS m
             WHERE m.queue = ? AND m.status = {status} AND (m.available_at, m.id) > (?, ?)
             ORDER BY m.available_at, m.id LIMIT ?""".replace("{columns}", COLUMNS);

    private static final String LEASED_PAGE = SETTLED_PAGE.replace("{status}", String.valueOf(RowStatus.LEASED));
    private static final String ACKED_PAGE = SETTLED_PAGE.replace("{status}", String.valueOf(RowStatus.ACKED));
    private static final String FAILED_PAGE = SETTLED_PAGE.replace("{status}", String.valueOf(RowStatus.FAILED));

    /** Counts the rows of one status up to a cap, from the partial index of the state. Binds the queue, the cap. */
    private static final String SETTLED_COUNT = """
            SELECT count(*) FROM (SELECT 1 FROM %1$s.messages WHERE queue = ? AND status = {status} LIMIT ?)
                AS counted""";

    private static final String LEASED_COUNT = SETTLED_COUNT.replace("{status}", String.valueOf(RowStatus.LEASED));
    private static final String ACKED_COUNT = SETTLED_COUNT.replace("{status}", String.valueOf(RowStatus.ACKED));
    private static final String FAILED_COUNT = SETTLED_COUNT.replace("{status}", String.valueOf(RowStatus.FAILED));

    private JobStatements() {
    }

    static @Nullable JobRow job(Connection connection, String schema, String queue, long id) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(JOB.formatted(schema))) {
            query.setLong(1, id);
            query.setString(2, queue);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? JobRow.read(rows) : null;
            }
        }
    }

    static List<JobRow> put(Connection connection, String schema, String queue, long afterId, long throughId,
                            int limit) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(PUT.formatted(schema))) {
            query.setLong(1, afterId);
            query.setLong(2, throughId);
            query.setString(3, queue);
            query.setInt(4, limit);
            return rows(query);
        }
    }

    static List<JobRow> byIds(Connection connection, String schema, String queue, long[] ids) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(BY_IDS.formatted(schema))) {
            query.setArray(1, connection.createArrayOf("bigint", Arrays.stream(ids).boxed().toArray()));
            query.setString(2, queue);
            return rows(query);
        }
    }

    static long lastId(Connection connection, String schema) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(LAST_ID.formatted(schema));
             ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static List<JobRow> rows(PreparedStatement query) throws SQLException {
        List<JobRow> read = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                read.add(JobRow.read(rows));
            }
        }
        return read;
    }

    static List<JobRow> page(Connection connection, String schema, JobPageRequest request) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(pageStatement(request.state()).formatted(schema))) {
            if (request.inClaimOrder()) {
                bindWalk(query, request, request.limit());
            } else {
                query.setString(1, request.queue());
                query.setLong(2, request.afterDueAt());
                query.setLong(3, request.afterId());
                query.setInt(4, request.limit());
            }
            return rows(query);
        }
    }

    static long count(Connection connection, String schema, String queue, JobState state, long now, long cap)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(countStatement(state).formatted(schema))) {
            JobPageRequest everything = new JobPageRequest(queue, state, now, null, 1);
            if (everything.inClaimOrder()) {
                bindWalk(query, everything, cap);
            } else {
                query.setString(1, queue);
                query.setLong(2, cap);
            }
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** The page statement of a state, {@code %1$s} standing for the schema. */
    static String pageStatement(JobState state) {
        return switch (state) {
            case READY -> READY_PAGE;
            case DELAYED -> DELAYED_PAGE;
            case LEASED -> LEASED_PAGE;
            case ACKED -> ACKED_PAGE;
            case FAILED -> FAILED_PAGE;
        };
    }

    /** The count statement of a state, {@code %1$s} standing for the schema. */
    static String countStatement(JobState state) {
        return switch (state) {
            case READY -> READY_COUNT;
            case DELAYED -> DELAYED_COUNT;
            case LEASED -> LEASED_COUNT;
            case ACKED -> ACKED_COUNT;
            case FAILED -> FAILED_COUNT;
        };
    }

    /**
     * Binds a walk of waiting rows: ready rows start at the cursor in its priority and at the first row in the others
     * (the due-time condition ends each walk), delayed rows start past now in every priority, and past the cursor too
     * in its own.
     */
    private static void bindWalk(PreparedStatement query, JobPageRequest request, long limit) throws SQLException {
        boolean ready = request.state() == JobState.READY;
        long stateDueAt = ready ? Long.MIN_VALUE : request.now();
        long stateId = ready ? Long.MIN_VALUE : Long.MAX_VALUE;
        boolean cursorLater = request.afterDueAt() > stateDueAt
                || request.afterDueAt() == stateDueAt && request.afterId() > stateId;
        int parameter = 0;
        query.setString(++parameter, request.queue());
        query.setInt(++parameter, request.afterPriority());
        query.setString(++parameter, request.queue());
        query.setString(++parameter, request.queue());
        if (ready) {
            query.setLong(++parameter, request.now());
        }
        query.setInt(++parameter, request.afterPriority());
        query.setLong(++parameter, cursorLater ? request.afterDueAt() : stateDueAt);
        query.setLong(++parameter, stateDueAt);
        query.setInt(++parameter, request.afterPriority());
        query.setLong(++parameter, cursorLater ? request.afterId() : stateId);
        query.setLong(++parameter, stateId);
        query.setLong(++parameter, limit);
        query.setLong(++parameter, limit);
    }

}
