package io.localqueue.internal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Enqueue: the capacity check and the inserts of one put or putMany, inside the caller's write transaction.
 */
final class EnqueueStatements {

    private static final String INSERT = """
            INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at, job_id, \
            created_at, updated_at)
            VALUES (?, ?, 0, 0, ?, ?, ?, ?, ?)""";

    private static final String INSERT_RETURNING_ID = INSERT + " ON CONFLICT DO NOTHING RETURNING id";

    private static final String FIND_BY_JOB_ID = "SELECT id FROM messages WHERE queue = ? AND job_id = ?";

    /** Counts pending rows but stops at {@code cap}, so the check costs O(limit), never O(backlog). */
    private static final String COUNT_PENDING_UP_TO =
            "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE queue = ? AND status IN (0, 1) LIMIT ?)";

    private static final String LAST_ID = "SELECT last_insert_rowid()";

    private EnqueueStatements() {
    }

    /**
     * What an enqueue attempt did: ids in input order, or why nothing was written.
     *
     * @param ids the ids, or null when nothing was written
     * @param newRows how many rows the batch would add
     * @param impossible true when the batch adds more rows than the limit allows even on an empty queue
     */
    record Outcome(@Nullable List<Long> ids, long newRows, boolean impossible) {
        static Outcome written(List<Long> ids) {
            return new Outcome(ids, ids.size(), false);
        }
    }

    /**
     * Inserts the jobs unless the queue lacks room; a job id already present in the queue, in any state, resolves
     * to the existing row and takes no room.
     *
     * @param limit the pending-job limit, or 0 for none
     */
    static Outcome insert(JdbcTemplate jdbc, String queue, List<NewJob> jobs, int maxAttempts, long now,
                          long limit) {
        if (limit > 0) {
            long newRows = countNewRows(jdbc, queue, jobs);
            if (newRows > limit) {
                return new Outcome(null, newRows, true);
            }
            if (newRows > 0 && pendingExceeds(jdbc, queue, limit - newRows)) {
                return new Outcome(null, newRows, false);
            }
        }
        if (jobs.size() > 1 && jobs.stream().allMatch(job -> job.jobId() == null)) {
            return Outcome.written(insertBatch(jdbc, queue, jobs, maxAttempts, now));
        }
        List<Long> ids = new ArrayList<>(jobs.size());
        for (NewJob job : jobs) {
            ids.add(insertOne(jdbc, queue, job, maxAttempts, now));
        }
        return Outcome.written(ids);
    }

    private static long insertOne(JdbcTemplate jdbc, String queue, NewJob job, int maxAttempts, long now) {
        Long id = jdbc.query(INSERT_RETURNING_ID, rows -> rows.next() ? rows.getLong(1) : null,
                queue, job.payload(), maxAttempts, now, job.jobId(), now, now);
        if (id != null) {
            return id;
        }
        Long existing = findByJobId(jdbc, queue, job.jobId());
        if (existing == null) {
            throw new IllegalStateException("insert of job id '" + job.jobId() + "' into queue '" + queue
                    + "' conflicted, but no row holds that job id");
        }
        return existing;
    }

    /**
     * Inserts jobs without job ids in one JDBC batch; inside the write transaction AUTOINCREMENT hands out
     * consecutive ids, so the last one identifies them all.
     */
    private static List<Long> insertBatch(JdbcTemplate jdbc, String queue, List<NewJob> jobs, int maxAttempts,
                                          long now) {
        jdbc.batchUpdate(INSERT, new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int index) throws SQLException {
                statement.setString(1, queue);
                statement.setBytes(2, jobs.get(index).payload());
                statement.setInt(3, maxAttempts);
                statement.setLong(4, now);
                statement.setNull(5, java.sql.Types.VARCHAR);
                statement.setLong(6, now);
                statement.setLong(7, now);
            }

            @Override
            public int getBatchSize() {
                return jobs.size();
            }
        });
        Long last = jdbc.queryForObject(LAST_ID, Long.class);
        long first = last - jobs.size() + 1;
        List<Long> ids = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            ids.add(first + i);
        }
        return ids;
    }

    /** Counts rows the batch would add: every job without an id, plus each distinct id the queue lacks. */
    private static long countNewRows(JdbcTemplate jdbc, String queue, List<NewJob> jobs) {
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
            if (findByJobId(jdbc, queue, id) == null) {
                newRows++;
            }
        }
        return newRows;
    }

    private static boolean pendingExceeds(JdbcTemplate jdbc, String queue, long allowed) {
        Long counted = jdbc.queryForObject(COUNT_PENDING_UP_TO, Long.class, queue, allowed + 1);
        return counted != null && counted > allowed;
    }

    private static @Nullable Long findByJobId(JdbcTemplate jdbc, String queue, @Nullable String jobId) {
        return jdbc.query(FIND_BY_JOB_ID, rows -> rows.next() ? rows.getLong(1) : null, queue, jobId);
    }

    /** Counts pending rows exactly, for operations that add one row at a time. */
    static boolean isFull(JdbcTemplate jdbc, String queue, long limit) {
        return pendingExceeds(jdbc, queue, limit - 1);
    }
}
