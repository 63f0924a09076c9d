package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.StoredHeaders;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Enqueue on PostgreSQL: the capacity check and the insert of one put or putMany (each new job's headers with it),
 * inside the caller's transaction. The whole batch is one {@code INSERT … SELECT FROM unnest(…)}, so a batch costs
 * one round trip however large. A job id the queue holds already, or one that comes twice in the batch, resolves to
 * the existing row ({@code ON CONFLICT DO NOTHING}, which waits for a concurrent insert of the same id to commit or
 * roll back). A queue with a pending-job limit is exact across hosts: the check and the insert run under a
 * transaction-scoped advisory lock of the queue, so two hosts' batches are counted one after the other, each
 * counting the other's committed rows; settlements never take it, since they only ever make room.
 */
final class EnqueueStatements {

    private static final String INSERT = """
            INSERT INTO %1$s.messages (queue, payload, status, attempts, max_attempts, available_at, job_id, \
            created_at, updated_at, priority, concurrency_key)
            SELECT ?, rows.payload, 0, 0, ?, rows.available_at, rows.job_id, ?, ?, rows.priority, rows.concurrency_key
              FROM unnest(?::bytea[], ?::text[], ?::bigint[], ?::smallint[], ?::text[]) WITH ORDINALITY
                   AS rows (payload, job_id, available_at, priority, concurrency_key, position)
             ORDER BY rows.position
            ON CONFLICT (queue, job_id) WHERE job_id IS NOT NULL DO NOTHING
            RETURNING id, job_id""";

    /**
     * Inserts one job, a lone put's: the server plans this statement once and keeps the plan, where it plans
     * {@link #INSERT}'s arrays afresh at every execution.
     */
    private static final String INSERT_ONE = """
            INSERT INTO %1$s.messages (queue, payload, status, attempts, max_attempts, available_at, job_id, \
            created_at, updated_at, priority, concurrency_key)
            VALUES (?, ?, 0, 0, ?, ?, ?, ?, ?, ?::smallint, ?)
            ON CONFLICT (queue, job_id) WHERE job_id IS NOT NULL DO NOTHING
            RETURNING id, job_id""";

    private static final String FIND_BY_JOB_IDS =
            "SELECT job_id, id FROM %1$s.messages WHERE queue = ? AND job_id = ANY (?::text[])";

    private static final String INSERT_HEADERS = """
            INSERT INTO %1$s.message_headers (message_id, headers)
            SELECT * FROM unnest(?::bigint[], ?::text[])""";

    private EnqueueStatements() {
    }

    /**
     * Inserts the jobs unless the queue lacks room.
     *
     * @param connection a connection inside the caller's transaction
     * @param schema the layout's schema
     * @param limit the pending-job limit, or 0 for none
     * @return the ids in input order, or why nothing was written
     */
    static Enqueued insert(Connection connection, String schema, String queue, List<NewJob> jobs, int maxAttempts,
                           long now, long limit) throws SQLException {
        if (limit > 0) {
            lockQueue(connection, schema, queue);
            long newRows = newRows(connection, schema, queue, jobs);
            if (newRows > limit) {
                return Enqueued.full(newRows, true);
            }
            if (newRows > 0 && ReadStatements.pendingExceeds(connection, schema, queue, limit - newRows)) {
                return Enqueued.full(newRows, false);
            }
        }
        List<Long> newIds = new ArrayList<>();
        Map<String, Long> byJobId = new HashMap<>();
        try (PreparedStatement insert = jobs.size() == 1
                ? insertOne(connection, schema, queue, jobs.get(0), maxAttempts, now)
                : insertAll(connection, schema, queue, jobs, maxAttempts, now);
             ResultSet inserted = insert.executeQuery()) {
            while (inserted.next()) {
                String jobId = inserted.getString(2);
                if (jobId == null) {
                    newIds.add(inserted.getLong(1));
                } else {
                    byJobId.put(jobId, inserted.getLong(1));
                }
            }
        }
        // Identity values are drawn in the order the SELECT yields its rows, so sorting gives them in input order.
        newIds.sort(null);
        Set<String> freshJobIds = new LinkedHashSet<>(byJobId.keySet());
        findExisting(connection, schema, queue, jobs.stream().map(NewJob::jobId).toArray(String[]::new), byJobId);
        for (NewJob job : jobs) {
            String jobId = job.jobId();
            if (jobId != null && !byJobId.containsKey(jobId)) {
                throw new IllegalStateException("insert of job id '" + jobId + "' into queue '" + queue
                        + "' conflicted, but no row holds that job id");
            }
        }
        List<Long> ids = new ArrayList<>(jobs.size());
        List<Long> withHeaders = new ArrayList<>();
        List<String> headers = new ArrayList<>();
        int next = 0;
        for (NewJob job : jobs) {
            long id;
            boolean inserted;
            if (job.jobId() == null) {
                id = newIds.get(next++);
                inserted = true;
            } else {
                id = byJobId.get(job.jobId());
                inserted = freshJobIds.remove(job.jobId());
            }
            ids.add(id);
            if (inserted && !job.headers().isEmpty()) {
                withHeaders.add(id);
                headers.add(StoredHeaders.encode(job.headers()));
            }
        }
        insertHeaders(connection, schema, withHeaders, headers);
        return Enqueued.written(ids);
    }

    /** The insert of one job, its parameters bound. */
    private static PreparedStatement insertOne(Connection connection, String schema, String queue, NewJob job,
                                               int maxAttempts, long now) throws SQLException {
        PreparedStatement insert = connection.prepareStatement(INSERT_ONE.formatted(schema));
        try {
            job.bindRow(insert, queue, maxAttempts, now);
            return insert;
        } catch (SQLException | RuntimeException failure) {
            insert.close();
            throw failure;
        }
    }

    /** The insert of several jobs in one statement over arrays of their columns, its parameters bound. */
    private static PreparedStatement insertAll(Connection connection, String schema, String queue, List<NewJob> jobs,
                                               int maxAttempts, long now) throws SQLException {
        byte[][] payloads = new byte[jobs.size()][];
        String[] jobIds = new String[jobs.size()];
        Long[] availableAt = new Long[jobs.size()];
        Short[] priorities = new Short[jobs.size()];
        String[] keys = new String[jobs.size()];
        for (int i = 0; i < jobs.size(); i++) {
            payloads[i] = jobs.get(i).payload();
            jobIds[i] = jobs.get(i).jobId();
            availableAt[i] = jobs.get(i).availableAt(now);
            priorities[i] = (short) jobs.get(i).priority();
            keys[i] = jobs.get(i).concurrencyKey();
        }
        PreparedStatement insert = connection.prepareStatement(INSERT.formatted(schema));
        try {
            insert.setString(1, queue);
            insert.setInt(2, maxAttempts);
            insert.setLong(3, now);
            insert.setLong(4, now);
            insert.setArray(5, connection.createArrayOf("bytea", payloads));
            insert.setArray(6, connection.createArrayOf("text", jobIds));
            insert.setArray(7, connection.createArrayOf("bigint", availableAt));
            insert.setArray(8, connection.createArrayOf("smallint", priorities));
            insert.setArray(9, connection.createArrayOf("text", keys));
            return insert;
        } catch (SQLException | RuntimeException failure) {
            insert.close();
            throw failure;
        }
    }

    /** Takes the queue's advisory lock until the transaction ends. */
    static void lockQueue(Connection connection, String schema, String queue) throws SQLException {
        PostgresSchema.lock(connection, schema + "/queue:" + queue);
    }

    /** Counts the rows the batch would add: every job without an id, plus each distinct id the queue lacks. */
    private static long newRows(Connection connection, String schema, String queue, List<NewJob> jobs)
            throws SQLException {
        long newRows = 0;
        Set<String> distinct = new LinkedHashSet<>();
        for (NewJob job : jobs) {
            if (job.jobId() == null) {
                newRows++;
            } else {
                distinct.add(job.jobId());
            }
        }
        Map<String, Long> present = new HashMap<>();
        findExisting(connection, schema, queue, distinct.toArray(String[]::new), present);
        return newRows + distinct.size() - present.size();
    }

    /** Adds to {@code found} the ids of the rows holding those of {@code jobIds} it lacks; absent ones stay absent. */
    private static void findExisting(Connection connection, String schema, String queue, String[] jobIds,
                                     Map<String, Long> found) throws SQLException {
        List<String> missing = new ArrayList<>();
        for (String jobId : jobIds) {
            if (jobId != null && !found.containsKey(jobId)) {
                missing.add(jobId);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        try (PreparedStatement find = connection.prepareStatement(FIND_BY_JOB_IDS.formatted(schema))) {
            find.setString(1, queue);
            find.setArray(2, connection.createArrayOf("text", missing.toArray()));
            try (ResultSet rows = find.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
    }

    /**
     * Keeps the encoded headers of rows just inserted (a job's, or a bus delivery's) beside them, in one statement.
     *
     * @param ids the new rows that have headers
     * @param headers their encoded headers, index by index
     */
    static void insertHeaders(Connection connection, String schema, List<Long> ids, List<String> headers)
            throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_HEADERS.formatted(schema))) {
            Array messageIds = connection.createArrayOf("bigint", ids.toArray());
            insert.setArray(1, messageIds);
            insert.setArray(2, connection.createArrayOf("text", headers.toArray()));
            insert.executeUpdate();
        }
    }
}
