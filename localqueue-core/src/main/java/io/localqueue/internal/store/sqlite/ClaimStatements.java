package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.sqlite.Session;
import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimOrder;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.Receipts;
import io.localqueue.internal.store.StoredHeaders;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Claim: the read-only probe that keeps idle pollers off the write lock, lease reclaim, and the claim itself.
 */
final class ClaimStatements {

    /** Earliest due time of a ready row and earliest expiry of a lease; both walk an index from its start. */
    static final String PROBE = """
            SELECT (SELECT MIN(available_at) FROM messages WHERE queue = ?1 AND status = 0),
                   (SELECT MIN(lease_until) FROM messages WHERE queue = ?1 AND status = 1)""";

    /**
     * Expired leases go back to ready (keeping their due time, so they keep their place in line), or to failed when
     * their delivery budget is spent, with a last error that says the lease ran out (and keeps an earlier one).
     */
    static final String RECLAIM = """
            UPDATE messages
               SET status = CASE WHEN attempts < max_attempts THEN 0 ELSE 3 END,
                   failure_reason = CASE WHEN attempts < max_attempts THEN failure_reason
                                         ELSE 'retries_exhausted' END,
                   last_error = CASE WHEN attempts < max_attempts THEN last_error
                                     ELSE 'lease expired on delivery ' || attempts || ' of ' || max_attempts
                                          || ': the job was not settled before its lease ran out'
                                          || COALESCE('; before that: ' || last_error, '') END,
                   receipt = NULL, lease_until = NULL, updated_at = ?1
             WHERE queue = ?2 AND status = 1 AND lease_until <= ?1
            RETURNING id, attempts, max_attempts, status, last_error""";

    /**
     * Whether any lease of the queue has expired. A read costs about half the reclaim update, which opens write
     * cursors on the table and every index even when nothing matches, so the claim runs it only when needed.
     */
    static final String ANY_EXPIRED =
            "SELECT EXISTS (SELECT 1 FROM messages WHERE queue = ?1 AND status = 1 AND lease_until <= ?2)";

    /**
     * Leases the first due rows in claim order (due time, then id: a ready row's {@code lease_until} is NULL) from the
     * reference index. The index walk stops after {@code LIMIT} rows and never visits rows that are not yet due,
     * however many there are. Each row's headers come with it from one
     * rowid probe of {@code message_headers}, in the same statement.
     */
    static final String CLAIM = """
            UPDATE messages
               SET status = 1, receipt = ?1 || id, lease_until = ?2, attempts = attempts + 1, updated_at = ?3
             WHERE id IN (SELECT id FROM messages INDEXED BY idx_messages_queue_status
                           WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                           ORDER BY available_at, lease_until, id LIMIT ?5)
            RETURNING id, payload, attempts, receipt, lease_until, available_at,
                      (SELECT headers FROM message_headers WHERE message_id = messages.id)""";

    /**
     * The claim of a consumer with a delivery budget of its own (an event-bus subscription's retry policy): it writes
     * the budget onto every row it takes, and a row whose claims reached the budget already becomes a dead letter
     * ({@code retries_exhausted}) in the same statement instead of a lease; the returned status tells them apart.
     */
    static final String CLAIM_WITH_BUDGET = """
            UPDATE messages
               SET status = CASE WHEN attempts >= ?6 THEN 3 ELSE 1 END,
                   receipt = CASE WHEN attempts >= ?6 THEN NULL ELSE ?1 || id END,
                   lease_until = CASE WHEN attempts >= ?6 THEN NULL ELSE ?2 END,
                   failure_reason = CASE WHEN attempts >= ?6 THEN 'retries_exhausted' ELSE failure_reason END,
                   attempts = CASE WHEN attempts >= ?6 THEN attempts ELSE attempts + 1 END,
                   max_attempts = ?6, updated_at = ?3
             WHERE id IN (SELECT id FROM messages INDEXED BY idx_messages_queue_status
                           WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                           ORDER BY available_at, lease_until, id LIMIT ?5)
            RETURNING id, payload, attempts, receipt, lease_until, available_at,
                      (SELECT headers FROM message_headers WHERE message_id = messages.id), status""";

    /** Expired leases take the claimer's budget before they are reclaimed, so the reclaim judges them by it. */
    static final String BUDGET_EXPIRED = """
            UPDATE messages SET max_attempts = ?3
             WHERE queue = ?1 AND status = 1 AND lease_until <= ?2 AND max_attempts <> ?3""";

    private ClaimStatements() {
    }

    static ClaimProbe probe(Session session, String queue) throws SQLException {
        return session.query(PROBE, statement -> statement.setString(1, queue), rows -> {
            rows.next();
            long due = rows.getLong(1);
            Long earliestDue = rows.wasNull() ? null : due;
            long leaseEnd = rows.getLong(2);
            Long earliestLeaseEnd = rows.wasNull() ? null : leaseEnd;
            return new ClaimProbe(earliestDue, earliestLeaseEnd);
        });
    }

    static List<ExpiredLease> reclaim(Session session, String queue, long now) throws SQLException {
        return session.query(RECLAIM, statement -> {
            statement.setLong(1, now);
            statement.setString(2, queue);
        }, rows -> {
            List<ExpiredLease> expired = new ArrayList<>();
            while (rows.next()) {
                expired.add(new ExpiredLease(rows.getLong(1), rows.getInt(2), rows.getInt(3),
                        rows.getInt(4) == Schema.STATUS_FAILED, rows.getString(5)));
            }
            return expired;
        });
    }

    /**
     * Reclaims expired leases when asked to look for them, then leases up to {@code limit} due rows.
     *
     * @param lookForExpired false when the caller knows no lease can have expired since its last look
     */
    static ClaimBatch claim(Session session, String queue, long now, long leaseUntil, int limit,
                            boolean lookForExpired, int budget) throws SQLException {
        List<ExpiredLease> reclaimed = List.of();
        if (lookForExpired && anyExpired(session, queue, now)) {
            if (budget > 0) {
                session.update(BUDGET_EXPIRED, statement -> {
                    statement.setString(1, queue);
                    statement.setLong(2, now);
                    statement.setInt(3, budget);
                });
            }
            reclaimed = reclaim(session, queue, now);
        }
        List<ClaimedRow> rows = new ArrayList<>(Math.min(limit, 64));
        List<Long> dueTimes = new ArrayList<>(Math.min(limit, 64));
        String receiptPrefix = Receipts.newPrefix();
        String sql = budget > 0 ? CLAIM_WITH_BUDGET : CLAIM;
        session.query(sql, statement -> {
            statement.setString(1, receiptPrefix);
            statement.setLong(2, leaseUntil);
            statement.setLong(3, now);
            statement.setString(4, queue);
            statement.setInt(5, limit);
            if (budget > 0) {
                statement.setInt(6, budget);
            }
        }, result -> {
            while (result.next()) {
                if (budget > 0 && result.getInt(8) == Schema.STATUS_FAILED) {
                    continue;
                }
                rows.add(new ClaimedRow(result.getLong(1), result.getBytes(2), result.getInt(3), result.getString(4),
                        result.getLong(5), StoredHeaders.decode(result.getString(7))));
                dueTimes.add(result.getLong(6));
            }
            return null;
        });
        return new ClaimBatch(ClaimOrder.sorted(rows, dueTimes), reclaimed);
    }

    private static boolean anyExpired(Session session, String queue, long now) throws SQLException {
        Long any = session.queryLong(ANY_EXPIRED, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
        });
        return any != null && any != 0;
    }
}
