package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import java.sql.SQLException;
import java.sql.Types;
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

    /** Keeps a new job's headers beside its row; a job without headers gets no row here. */
    private static final String INSERT_HEADERS = "INSERT INTO message_headers (message_id, headers) VALUES (?, ?)";

    private static final String FIND_BY_JOB_ID = "SELECT id FROM messages WHERE queue = ? AND job_id = ?";

    /** Counts pending rows but stops at {@code cap}, so the check costs O(limit), never O(backlog). */
    private static final String COUNT_PENDING_UP_TO =
            "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE queue = ? AND status IN (0, 1) LIMIT ?)";

    private static final String LAST_ID = "SELECT last_insert_rowid()";

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
     * Inserts jobs without job ids in one batch; inside the write transaction AUTOINCREMENT hands out consecutive
     * ids, so the last one identifies them all.
     */
    private static List<Long> insertBatch(Session session, String queue, List<NewJob> jobs, int maxAttempts,
                                          long now) throws SQLException {
        session.batch(INSERT, jobs.size(), (statement, index) -> {
            statement.setString(1, queue);
            statement.setBytes(2, jobs.get(index).payload());
            statement.setInt(3, maxAttempts);
            statement.setLong(4, now);
            statement.setNull(5, Types.VARCHAR);
            statement.setLong(6, now);
            statement.setLong(7, now);
        });
        Long last = session.queryLong(LAST_ID, statement -> { });
        if (last == null) {
            throw new IllegalStateException("SQLite reported no last insert id after inserting into '" + queue + "'");
        }
        long first = last - jobs.size() + 1;
        List<Long> ids = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            ids.add(first + i);
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
