package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Enqueue: the capacity check and the inserts of one put or putMany (each new job's headers with it), inside the
 * caller's write transaction.
 */
final class EnqueueStatements {

    private static final String INSERT = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, job_id, \
            created_at, updated_at)
            VALUES (?, ?, 0, 0, ?, ?, ?, ?, ?)""";

    private static final String INSERT_RETURNING_ID = INSERT + " ON CONFLICT DO NOTHING RETURNING id";

    /**
     * The row counts of multi-row inserts, largest first: a batch goes in as few statements as these sizes add up
     * to (100 rows: 64 + 32 + 4), and the number of distinct statements stays small.
     */
    private static final int[] ROWS_PER_INSERT = {512, 256, 128, 64, 32, 16, 8, 4, 2, 1};

    /** One multi-row insert per entry of {@link #ROWS_PER_INSERT}; queue, budget and time are bound once. */
    private static final String[] INSERT_ROWS = new String[ROWS_PER_INSERT.length];

    static {
        for (int i = 0; i < ROWS_PER_INSERT.length; i++) {
            StringBuilder sql = new StringBuilder("INSERT INTO messages (queue, payload, status, attempts, "
                    + "max_attempts, available_at, job_id, created_at, updated_at) VALUES ");
            for (int row = 0; row < ROWS_PER_INSERT[i]; row++) {
                sql.append(row == 0 ? "" : ", ")
                        .append("(?1, ?").append(row + 4).append(", 0, 0, ?2, ?3, NULL, ?3, ?3)");
            }
            INSERT_ROWS[i] = sql.append(" RETURNING id").toString();
        }
    }

    /** Keeps a new job's headers beside its row; a job without headers gets no row here. */
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
        if (jobs.size() > 1 && jobs.stream().allMatch(job -> job.jobId() == null)) {
            List<Long> ids = insertBatch(session, queue, jobs, maxAttempts, now);
            insertHeaders(session, jobs, ids);
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
        Long id = session.queryLong(INSERT_RETURNING_ID, statement -> {
            statement.setString(1, queue);
            statement.setBytes(2, job.payload());
            statement.setInt(3, maxAttempts);
            statement.setLong(4, now);
            statement.setString(5, job.jobId());
            statement.setLong(6, now);
            statement.setLong(7, now);
        });
        if (id != null) {
            insertHeaders(session, List.of(job), List.of(id));
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
     * Inserts jobs without job ids in as few multi-row statements as {@link #ROWS_PER_INSERT} allows (one JNI step
     * per row returned instead of a bind, step and reset per row inserted); inside the write transaction
     * AUTOINCREMENT hands each statement's rows consecutive ids in the order of its values, so sorting what a
     * statement returns gives the ids in input order.
     */
    private static List<Long> insertBatch(Session session, String queue, List<NewJob> jobs, int maxAttempts,
                                          long now) throws SQLException {
        List<Long> ids = new ArrayList<>(jobs.size());
        int next = 0;
        for (int size = 0; size < ROWS_PER_INSERT.length; size++) {
            int rows = ROWS_PER_INSERT[size];
            while (jobs.size() - next >= rows) {
                int first = next;
                List<Long> inserted = session.query(INSERT_ROWS[size], statement -> {
                    statement.setString(1, queue);
                    statement.setInt(2, maxAttempts);
                    statement.setLong(3, now);
                    for (int row = 0; row < rows; row++) {
                        statement.setBytes(row + 4, jobs.get(first + row).payload());
                    }
                }, returned -> {
                    List<Long> chunk = new ArrayList<>(rows);
                    while (returned.next()) {
                        chunk.add(returned.getLong(1));
                    }
                    return chunk;
                });
                if (inserted.size() != rows) {
                    throw new IllegalStateException("inserting " + rows + " jobs into '" + queue + "' returned "
                            + inserted.size() + " ids");
                }
                inserted.sort(null);
                ids.addAll(inserted);
                next += rows;
            }
        }
        return ids;
    }

    /** Inserts the headers of the jobs that have some, {@code ids} being the rows just inserted for them. */
    private static void insertHeaders(Session session, List<NewJob> jobs, List<Long> ids) throws SQLException {
        List<Integer> withHeaders = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            if (!jobs.get(i).headers().isEmpty()) {
                withHeaders.add(i);
            }
        }
        if (withHeaders.isEmpty()) {
            return;
        }
        session.batch(INSERT_HEADERS, withHeaders.size(), (statement, index) -> {
            int job = withHeaders.get(index);
            statement.setLong(1, ids.get(job));
            statement.setString(2, StoredHeaders.encode(jobs.get(job).headers()));
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
