package io.localqueue.internal;

import io.localqueue.FailureReason;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The fenced transitions of a leased row. Each matches only the row's current delivery: same queue, still leased,
 * same receipt, lease not yet expired; zero rows matched means the caller's lease is gone.
 */
final class LeaseStatements {

    private static final String FENCE =
            " WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?";

    private static final String ACK =
            "UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, updated_at = ?" + FENCE;

    /**
     * Back to ready (keeping the due time when there is no delay, so the job keeps its place), or to failed once
     * the delivery budget is spent.
     */
    private static final String NACK = """
            UPDATE messages
               SET status = CASE WHEN attempts >= max_attempts THEN 3 ELSE 0 END,
                   available_at = CASE WHEN attempts >= max_attempts THEN ? ELSE COALESCE(?, available_at) END,
                   failure_reason = CASE WHEN attempts >= max_attempts THEN ? ELSE NULL END,
                   last_error = ?, failure_category = NULL, receipt = NULL, lease_until = NULL, updated_at = ?"""
            + FENCE + " RETURNING status";

    private static final String FAIL = """
            UPDATE messages
               SET status = 3, last_error = ?, failure_reason = ?, failure_category = ?,
                   receipt = NULL, lease_until = NULL, updated_at = ?""" + FENCE;

    private static final String EXTEND = "UPDATE messages SET lease_until = ?, updated_at = ?" + FENCE;

    /**
     * Hands back a delivery that no handler started: ready again at once, in its old place, and the claim not
     * counted against the job's delivery budget.
     */
    private static final String RELEASE = """
            UPDATE messages
               SET status = 0, attempts = MAX(attempts - 1, 0), receipt = NULL, lease_until = NULL, updated_at = ?"""
            + FENCE;

    private LeaseStatements() {
    }

    static boolean ack(JdbcTemplate jdbc, String queue, long id, String receipt, long now) {
        return jdbc.update(ACK, now, id, queue, receipt, now) == 1;
    }

    /**
     * Acknowledges many deliveries with one prepared statement, each under its own fence.
     *
     * @param ids the message ids
     * @param receipts their receipts, index by index
     * @return for each delivery, whether its fence matched
     */
    static boolean[] ackAll(JdbcTemplate jdbc, String queue, long[] ids, String[] receipts, long now) {
        int[] counts = jdbc.batchUpdate(ACK, new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int index) throws SQLException {
                statement.setLong(1, now);
                statement.setLong(2, ids[index]);
                statement.setString(3, queue);
                statement.setString(4, receipts[index]);
                statement.setLong(5, now);
            }

            @Override
            public int getBatchSize() {
                return ids.length;
            }
        });
        boolean[] matched = new boolean[ids.length];
        for (int i = 0; i < counts.length; i++) {
            matched[i] = counts[i] == 1;
        }
        return matched;
    }

    /**
     * Returns the row's new status, or null when the fence did not match.
     *
     * @param availableAt the new due time, or null to keep the current one
     */
    static @Nullable Integer nack(JdbcTemplate jdbc, String queue, long id, String receipt, long now,
                                  @Nullable Long availableAt, @Nullable String lastError,
                                  FailureReason exhaustedReason) {
        return jdbc.query(NACK, rows -> rows.next() ? rows.getInt(1) : null,
                now, availableAt, exhaustedReason.value(), lastError, now, id, queue, receipt, now);
    }

    static boolean fail(JdbcTemplate jdbc, String queue, long id, String receipt, long now,
                        @Nullable String lastError, FailureReason reason, @Nullable String category) {
        return jdbc.update(FAIL, lastError, reason.value(), category, now, id, queue, receipt, now) == 1;
    }

    static boolean release(JdbcTemplate jdbc, String queue, long id, String receipt, long now) {
        return jdbc.update(RELEASE, now, id, queue, receipt, now) == 1;
    }

    static boolean extend(JdbcTemplate jdbc, String queue, long id, String receipt, long now, long leaseUntil) {
        return jdbc.update(EXTEND, leaseUntil, now, id, queue, receipt, now) == 1;
    }
}
