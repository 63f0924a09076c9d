package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimOrder;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.Receipts;
import io.localqueue.internal.store.StoredHeaders;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Claims on PostgreSQL: the read-only probe, the reclaim of expired leases and the claim itself, each one statement.
 * Rows are picked {@code FOR UPDATE SKIP LOCKED}, so consumers on many hosts take disjoint rows without waiting for
 * each other, and a row another transaction is settling or reclaiming is left to it.
 */
final class ClaimStatements {

    /** Earliest due time of a ready row and earliest expiry of a lease; each reads one end of a partial index. */
    private static final String PROBE = """
            SELECT (SELECT min(available_at) FROM %1$s.messages WHERE queue = ? AND status = 0),
                   (SELECT min(lease_until) FROM %1$s.messages WHERE queue = ? AND status = 1)""";

    private static final String ANY_EXPIRED = """
            SELECT EXISTS (SELECT 1 FROM %1$s.messages WHERE queue = ? AND status = 1 AND lease_until <= ?)""";

    /**
     * Expired leases go back to ready (keeping their due time, so they keep their place in line), or to failed when
     * their delivery budget is spent, with a last error that says the lease ran out (and keeps an earlier one).
     */
    private static final String RECLAIM = """
            UPDATE %1$s.messages AS m
               SET status = CASE WHEN m.attempts < m.max_attempts THEN 0 ELSE 3 END,
                   failure_reason = CASE WHEN m.attempts < m.max_attempts THEN m.failure_reason
                                         ELSE 'retries_exhausted' END,
                   last_error = CASE WHEN m.attempts < m.max_attempts THEN m.last_error
                                     ELSE 'lease expired on delivery ' || m.attempts || ' of ' || m.max_attempts
                                          || ': the job was not settled before its lease ran out'
                                          || COALESCE('; before that: ' || m.last_error, '') END,
                   receipt = NULL, lease_until = NULL, updated_at = ?
              FROM (SELECT id FROM %1$s.messages WHERE queue = ? AND status = 1 AND lease_until <= ?
                    FOR UPDATE SKIP LOCKED) AS expired
             WHERE m.id = expired.id
            RETURNING m.id, m.attempts, m.max_attempts, m.status, m.last_error""";

    /** Expired leases take the claimer's budget before they are reclaimed, so the reclaim judges them by it. */
    private static final String BUDGET_EXPIRED = """
            UPDATE %1$s.messages SET max_attempts = ?
             WHERE queue = ? AND status = 1 AND lease_until <= ? AND max_attempts <> ?""";

    /**
     * Leases the first due rows in claim order (due time, then id) from the ready index; the returned status tells a
     * lease (1) from a row a claimer's budget made a dead letter (3). Without a budget of the claimer's ({@code 0}),
     * every row keeps its own and is leased.
     */
    static final String CLAIM = """
            WITH p AS (SELECT ?::integer AS budget, ?::text AS prefix, ?::bigint AS lease_until, ?::bigint AS now)
            UPDATE %1$s.messages AS m
               SET status = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN 3 ELSE 1 END,
                   receipt = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN NULL ELSE p.prefix || m.id END,
                   lease_until = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN NULL ELSE p.lease_until END,
                   failure_reason = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN 'retries_exhausted'
                                         ELSE m.failure_reason END,
                   attempts = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN m.attempts
                                   ELSE m.attempts + 1 END,
                   max_attempts = CASE WHEN p.budget > 0 THEN p.budget ELSE m.max_attempts END,
                   updated_at = p.now
              FROM p, (SELECT id FROM %1$s.messages WHERE queue = ? AND status = 0 AND available_at <= ?
                       ORDER BY available_at, id LIMIT ? FOR UPDATE SKIP LOCKED) AS due
             WHERE m.id = due.id
            RETURNING m.id, m.payload, m.attempts, m.receipt, m.lease_until, m.available_at,
                      (SELECT headers FROM %1$s.message_headers AS h WHERE h.message_id = m.id), m.status""";


    private ClaimStatements() {
    }

    static ClaimProbe probe(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement probe = connection.prepareStatement(PROBE.formatted(schema))) {
            probe.setString(1, queue);
            probe.setString(2, queue);
            try (ResultSet rows = probe.executeQuery()) {
                rows.next();
                long due = rows.getLong(1);
                Long earliestDue = rows.wasNull() ? null : due;
                long leaseEnd = rows.getLong(2);
                return new ClaimProbe(earliestDue, rows.wasNull() ? null : leaseEnd);
            }
        }
    }

    static List<ExpiredLease> reclaim(Connection connection, String schema, String queue, long now)
            throws SQLException {
        try (PreparedStatement reclaim = connection.prepareStatement(RECLAIM.formatted(schema))) {
            reclaim.setLong(1, now);
            reclaim.setString(2, queue);
            reclaim.setLong(3, now);
            List<ExpiredLease> expired = new ArrayList<>();
            try (ResultSet rows = reclaim.executeQuery()) {
                while (rows.next()) {
                    expired.add(new ExpiredLease(rows.getLong(1), rows.getInt(2), rows.getInt(3),
                            rows.getInt(4) == PostgresSchema.STATUS_FAILED, rows.getString(5)));
                }
            }
            expired.sort(Comparator.comparingLong(ExpiredLease::id));
            return expired;
        }
    }

    /**
     * Reclaims expired leases when asked to look for them, then leases up to {@code limit} due rows.
     *
     * @param lookForExpired false when the caller knows no lease can have expired since its last look
     * @param budget a delivery budget of the claimer's to write onto every row it takes, or 0 for none
     */
    static ClaimBatch claim(Connection connection, String schema, String queue, long now, long leaseUntil, int limit,
                            boolean lookForExpired, int budget) throws SQLException {
        List<ExpiredLease> reclaimed = List.of();
        if (lookForExpired && anyExpired(connection, schema, queue, now)) {
            if (budget > 0) {
                try (PreparedStatement budgeted = connection.prepareStatement(BUDGET_EXPIRED.formatted(schema))) {
                    budgeted.setInt(1, budget);
                    budgeted.setString(2, queue);
                    budgeted.setLong(3, now);
                    budgeted.setInt(4, budget);
                    budgeted.executeUpdate();
                }
            }
            reclaimed = reclaim(connection, schema, queue, now);
        }
        List<ClaimedRow> rows = new ArrayList<>(Math.min(limit, 64));
        List<Long> dueTimes = new ArrayList<>(Math.min(limit, 64));
        try (PreparedStatement claim = connection.prepareStatement(CLAIM.formatted(schema))) {
            claim.setInt(1, budget);
            claim.setString(2, Receipts.newPrefix());
            claim.setLong(3, leaseUntil);
            claim.setLong(4, now);
            claim.setString(5, queue);
            claim.setLong(6, now);
            claim.setInt(7, limit);
            try (ResultSet result = claim.executeQuery()) {
                while (result.next()) {
                    if (result.getInt(8) == PostgresSchema.STATUS_FAILED) {
                        continue;
                    }
                    rows.add(new ClaimedRow(result.getLong(1), result.getBytes(2), result.getInt(3),
                            result.getString(4), result.getLong(5), StoredHeaders.decode(result.getString(7))));
                    dueTimes.add(result.getLong(6));
                }
            }
        }
        return new ClaimBatch(ClaimOrder.sorted(rows, dueTimes), reclaimed);
    }

    private static boolean anyExpired(Connection connection, String schema, String queue, long now)
            throws SQLException {
        try (PreparedStatement any = connection.prepareStatement(ANY_EXPIRED.formatted(schema))) {
            any.setString(1, queue);
            any.setLong(2, now);
            try (ResultSet rows = any.executeQuery()) {
                rows.next();
                return rows.getBoolean(1);
            }
        }
    }
}
