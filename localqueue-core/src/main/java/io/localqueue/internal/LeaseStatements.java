package io.localqueue.internal;

import io.localqueue.FailureReason;
import org.jspecify.annotations.Nullable;
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

    private LeaseStatements() {
    }

    static boolean ack(JdbcTemplate jdbc, String queue, long id, String receipt, long now) {
        return jdbc.update(ACK, now, id, queue, receipt, now) == 1;
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

    static boolean extend(JdbcTemplate jdbc, String queue, long id, String receipt, long now, long leaseUntil) {
        return jdbc.update(EXTEND, leaseUntil, now, id, queue, receipt, now) == 1;
    }
}
