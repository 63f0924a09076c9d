package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.StoredHeaders;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Enqueue: the capacity check and the inserts of one put or putMany (each new job's headers with it), inside the
 * caller's write transaction.
 */
final class EnqueueStatements {

    /**
     * The default priority of a queue's new rows, read by the insert itself, so that a plain put runs no statement
     * more than it did before priorities: 0 when the queue uses priorities, else NULL, which keeps the row out of
     * their index.
     */
    private static final String DEFAULT_PRIORITY = "(SELECT 0 FROM queue_priorities WHERE queue = ?1)";

    /** A new row's priority: its own when not the default, else the queue's default. */
    private static final String PRIORITY_OF_ROW = "COALESCE(NULLIF(?8, 0), " + DEFAULT_PRIORITY + ")";

    private static final String INSERT = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, job_id, \
            created_at, updated_at, priority, concurrency_key)
            VALUES (?1, ?2, 0, 0, ?3, ?4, ?5, ?6, ?7, %s, ?9)""".formatted(PRIORITY_OF_ROW);

    private static final String INSERT_RETURNING_ID = INSERT + " ON CONFLICT DO NOTHING RETURNING id";


    /**
     * The row counts of multi-row inserts, largest first: a batch goes in as few statements as these sizes add up
     * to (100 rows: 64 + 32 + 4), and the number of distinct statements stays small.
     */
    private static final int[] ROWS_PER_INSERT = {512, 256, 128, 64, 32, 16, 8, 4, 2, 1};

    /**
     * One multi-row insert per entry of {@link #ROWS_PER_INSERT}; queue, budget, time and the default priority (NULL,
     * or 0 in a queue that uses priorities, read once per batch: a subquery in every row of the statement cost more
     * than half the throughput of a batch of 1,000) are bound once.
     */
    private static final String[] INSERT_ROWS = new String[ROWS_PER_INSERT.length];

    /** The same inserts with {@code RETURNING id}, for when the ids cannot be known to be consecutive. */
    private static final String[] INSERT_ROWS_RETURNING_ID = new String[ROWS_PER_INSERT.length];

    static {
        for (int i = 0; i < ROWS_PER_INSERT.length; i++) {
            StringBuilder sql = new StringBuilder("INSERT INTO messages (queue, payload, status, attempts, "
                    + "max_attempts, available_at, job_id, created_at, updated_at, priority) VALUES ");
            for (int row = 0; row < ROWS_PER_INSERT[i]; row++) {
                sql.append(row == 0 ? "" : ", ")
                        .append("(?1, ?").append(row + 5).append(", 0, 0, ?2, ?3, NULL, ?3, ?3, ?4)");
            }
            INSERT_ROWS[i] = sql.toString();
            INSERT_ROWS_RETURNING_ID[i] = sql.append(" RETURNING id").toString();
        }
    }

    /**
     * The smallest batch whose ids are taken as consecutive: below it, reading them back through {@code RETURNING}
     * costs less than the check that they come consecutive.
     */
    static final int CONSECUTIVE_IDS_FROM = 32;

    /**
     * Whether the rows about to be inserted get consecutive ids: no trigger (of the file, or a temporary one of this
     * connection) could insert rows of its own into {@code messages} meanwhile, and the largest id leaves room for
     * them, so SQLite gives each row the largest id so far plus one.
     */
    private static final String IDS_COME_CONSECUTIVE = """
            SELECT NOT EXISTS (SELECT 1 FROM sqlite_master
                                WHERE type = 'trigger' AND tbl_name = 'messages' COLLATE NOCASE)
               AND NOT EXISTS (SELECT 1 FROM sqlite_temp_master WHERE type = 'trigger')
               AND COALESCE((SELECT MAX(id) FROM messages), 0) <= 9223372036854775807 - ?""";

    private static final String LAST_INSERT_ROWID = "SELECT last_insert_rowid()";

    /** Keeps a new row's headers (a job's, or a bus delivery's) beside it; a row without headers gets none here. */
    private static final String INSERT_HEADERS = "INSERT INTO message_headers (message_id, headers) VALUES (?, ?)";

    private static final String FIND_BY_JOB_ID = "SELECT id FROM messages WHERE queue = ? AND job_id = ?";

    /** Counts pending rows but stops at {@code cap}, so the check costs O(limit), never O(backlog). */
    private static final String COUNT_PENDING_UP_TO =
            "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE queue = ? AND status IN (0, 1) LIMIT ?)";

    private EnqueueStatements() {
    }

    /**
     * Inserts the jobs unless the queue lacks room; a job id already present in the queue, in any state, resolves
     * to the existing row and takes no room.
     *
     * @param limit the pending-job limit, or 0 for none
     */
    static Enqueued insert(Session session, String queue, List<NewJob> jobs, int maxAttempts, long now, long limit)
            throws SQLException {
        if (limit > 0) {
            long newRows = countNewRows(session, queue, jobs);
            if (newRows > limit) {
                return Enqueued.full(newRows, true);
            }
            if (newRows > 0 && pendingExceeds(session, queue, limit - newRows)) {
                return Enqueued.full(newRows, false);
            }
        }
        if (jobs.stream().anyMatch(job -> job.priority() != 0)) {
            PriorityStatements.start(session, queue);
        }
        if (jobs.size() > 1 && jobs.stream().allMatch(job -> job.jobId() == null && job.plainAt(now))) {
            Integer priority = PriorityStatements.used(session, queue) ? 0 : null;
            List<Long> ids = insertBatch(session, queue, jobs, maxAttempts, now, priority);
            insertHeaders(session, ids, jobs.stream().map(NewJob::headers).toList());
            return Enqueued.written(ids);
        }
        List<Long> ids = new ArrayList<>(jobs.size());
        for (NewJob job : jobs) {
            ids.add(insertOne(session, queue, job, maxAttempts, now));
        }
        return Enqueued.written(ids);
    }

    /**
     * Counts pending rows exactly, for operations that add one row at a time.
     *
     * @return true when the queue holds {@code limit} pending rows or more
     */
    static boolean isFull(Session session, String queue, long limit) throws SQLException {
        return pendingExceeds(session, queue, limit - 1);
    }

    private static long insertOne(Session session, String queue, NewJob job, int maxAttempts, long now)
            throws SQLException {
        Long id = session.queryLong(INSERT_RETURNING_ID, statement -> job.bindRow(statement, queue, maxAttempts, now));
        if (id != null) {
            insertHeaders(session, List.of(id), List.of(job.headers()));
            return id;
        }
        Long existing = findByJobId(session, queue, job.jobId());
        if (existing == null) {
            throw new IllegalStateException("insert of job id '" + job.jobId() + "' into queue '" + queue
                    + "' conflicted, but no row holds that job id");
        }
        return existing;
    }

    /**
     * Inserts jobs without job ids in as few multi-row statements as {@link #ROWS_PER_INSERT} allows (one bind per
     * value instead of a bind, step and reset per row). Inside the write transaction nothing else writes the file,
     * and SQLite gives a row inserted without an id the largest id so far plus one (AUTOINCREMENT also stays above
     * every id used before, and fails rather than reuse one), so the rows of the batch get consecutive ids in the
     * order of its values unless a trigger inserts rows of its own or the ids run out: where
     * {@link #IDS_COME_CONSECUTIVE} rules both out, the ids end at {@code last_insert_rowid()}; otherwise (and for
     * small batches, {@link #CONSECUTIVE_IDS_FROM}) each statement returns its ids, and sorting them gives them in
     * input order.
     */
    private static List<Long> insertBatch(Session session, String queue, List<NewJob> jobs, int maxAttempts,
                                          long now, @Nullable Integer priority) throws SQLException {
        if (jobs.size() >= CONSECUTIVE_IDS_FROM && idsComeConsecutive(session, jobs.size())) {
            return insertConsecutive(session, queue, jobs, maxAttempts, now, priority);
        }
        List<Long> ids = new ArrayList<>(jobs.size());
        forEachChunk(jobs.size(), (size, first, rows) -> {
            List<Long> inserted = session.query(INSERT_ROWS_RETURNING_ID[size],
                    statement -> bindRows(statement, queue, jobs, maxAttempts, now, priority, first, rows),
                    returned -> {
                        List<Long> chunk = new ArrayList<>(rows);
                        while (returned.next()) {
                            chunk.add(returned.getLong(1));
                        }
                        return chunk;
                    });
            requireInserted(inserted.size(), rows, queue);
            inserted.sort(null);
            ids.addAll(inserted);
        });
        return ids;
    }

    private static List<Long> insertConsecutive(Session session, String queue, List<NewJob> jobs, int maxAttempts,
                                                long now, @Nullable Integer priority) throws SQLException {
        forEachChunk(jobs.size(), (size, first, rows) -> requireInserted(session.update(INSERT_ROWS[size],
                statement -> bindRows(statement, queue, jobs, maxAttempts, now, priority, first, rows)), rows,
                queue));
        Long last = session.queryLong(LAST_INSERT_ROWID, statement -> { });
        if (last == null) {
            throw new IllegalStateException("inserting " + jobs.size() + " jobs into '" + queue + "' left no rowid");
        }
        List<Long> ids = new ArrayList<>(jobs.size());
        for (long id = last - jobs.size() + 1; id <= last; id++) {
            ids.add(id);
        }
        return ids;
    }

    private static boolean idsComeConsecutive(Session session, int rows) throws SQLException {
        Long consecutive = session.queryLong(IDS_COME_CONSECUTIVE, statement -> statement.setLong(1, rows));
        return consecutive != null && consecutive == 1;
    }

    /** Runs one chunk of a multi-row insert. */
    @FunctionalInterface
    private interface Chunk {
        void run(int size, int first, int rows) throws SQLException;
    }

    /** Splits {@code count} rows into chunks of {@link #ROWS_PER_INSERT}, largest first, and runs each in order. */
    private static void forEachChunk(int count, Chunk chunk) throws SQLException {
        int next = 0;
        for (int size = 0; size < ROWS_PER_INSERT.length; size++) {
            int rows = ROWS_PER_INSERT[size];
            while (count - next >= rows) {
                chunk.run(size, next, rows);
                next += rows;
            }
        }
    }

    private static void bindRows(PreparedStatement statement, String queue, List<NewJob> jobs, int maxAttempts,
                                 long now, @Nullable Integer priority, int first, int rows) throws SQLException {
        statement.setString(1, queue);
        statement.setInt(2, maxAttempts);
        statement.setLong(3, now);
        if (priority == null) {
            statement.setNull(4, Types.INTEGER);
        } else {
            statement.setInt(4, priority);
        }
        for (int row = 0; row < rows; row++) {
            statement.setBytes(row + 5, jobs.get(first + row).payload());
        }
    }

    private static void requireInserted(int inserted, int rows, String queue) {
        if (inserted != rows) {
            throw new IllegalStateException("inserting " + rows + " jobs into '" + queue + "' inserted " + inserted);
        }
    }

    /**
     * Keeps the headers of rows just inserted beside them: one row of {@code message_headers} for each id whose
     * headers are not empty.
     *
     * @param ids the new rows
     * @param headers each new row's headers, index by index
     */
    static void insertHeaders(Session session, List<Long> ids, List<Map<String, String>> headers)
            throws SQLException {
        List<Long> withHeaders = new ArrayList<>();
        List<Map<String, String>> stored = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (!headers.get(i).isEmpty()) {
                withHeaders.add(ids.get(i));
                stored.add(headers.get(i));
            }
        }
        if (withHeaders.isEmpty()) {
            return;
        }
        List<String> encoded = StoredHeaders.encodeAll(stored);
        session.batch(INSERT_HEADERS, withHeaders.size(), (statement, index) -> {
            statement.setLong(1, withHeaders.get(index));
            statement.setString(2, encoded.get(index));
        });
    }

    /** Counts rows the batch would add: every job without an id, plus each distinct id the queue lacks. */
    private static long countNewRows(Session session, String queue, List<NewJob> jobs) throws SQLException {
        long newRows = 0;
        Set<String> ids = new LinkedHashSet<>();
        for (NewJob job : jobs) {
            if (job.jobId() == null) {
                newRows++;
            } else {
                ids.add(job.jobId());
            }
        }
        for (String id : ids) {
            if (findByJobId(session, queue, id) == null) {
                newRows++;
            }
        }
        return newRows;
    }

    private static boolean pendingExceeds(Session session, String queue, long allowed) throws SQLException {
        Long counted = session.queryLong(COUNT_PENDING_UP_TO, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, allowed + 1);
        });
        return counted != null && counted > allowed;
    }

    private static @Nullable Long findByJobId(Session session, String queue, @Nullable String jobId)
            throws SQLException {
        return session.queryLong(FIND_BY_JOB_ID, statement -> {
            statement.setString(1, queue);
            statement.setString(2, jobId);
        });
    }
}
