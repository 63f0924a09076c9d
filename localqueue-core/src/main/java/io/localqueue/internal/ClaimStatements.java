package io.localqueue.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

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
     * their delivery budget is spent.
     */
    static final String RECLAIM = """
            UPDATE messages
               SET status = CASE WHEN attempts < max_attempts THEN 0 ELSE 3 END,
                   failure_reason = CASE WHEN attempts < max_attempts THEN failure_reason
                                         ELSE 'retries_exhausted' END,
                   receipt = NULL, lease_until = NULL, updated_at = ?1
             WHERE queue = ?2 AND status = 1 AND lease_until <= ?1""";

    /**
     * Whether any lease of the queue has expired. A read costs about half the reclaim update, which opens write
     * cursors on the table and every index even when nothing matches, so the claim runs it only when needed.
     */
    static final String ANY_EXPIRED =
            "SELECT EXISTS (SELECT 1 FROM messages WHERE queue = ?1 AND status = 1 AND lease_until <= ?2)";

    /**
     * Leases the first due rows in claim order (due time, then id). The index walk stops after {@code LIMIT} rows
     * and never visits rows that are not yet due, however many there are.
     */
    static final String CLAIM = """
            UPDATE messages
               SET status = 1, receipt = ?1 || id, lease_until = ?2, attempts = attempts + 1, updated_at = ?3
             WHERE id IN (SELECT id FROM messages INDEXED BY idx_messages_claim
                           WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                           ORDER BY available_at, id LIMIT ?5)
            RETURNING id, payload, attempts, receipt, lease_until, available_at""";

    private ClaimStatements() {
    }

    /**
     * What the probe saw.
     *
     * @param earliestDue the smallest {@code available_at} of a ready row, or null when none is ready
     * @param earliestLeaseEnd the smallest {@code lease_until} of a leased row, or null when none is leased
     */
    record Probe(@Nullable Long earliestDue, @Nullable Long earliestLeaseEnd) {

        boolean claimable(long now) {
            return (earliestDue != null && earliestDue <= now) || (earliestLeaseEnd != null && earliestLeaseEnd <= now);
        }

        /** Milliseconds until a row becomes due or a lease expires, or {@code Long.MAX_VALUE} when nothing will. */
        long millisUntilNextEvent(long now) {
            long next = Long.MAX_VALUE;
            if (earliestDue != null) {
                next = Math.min(next, earliestDue - now);
            }
            if (earliestLeaseEnd != null) {
                next = Math.min(next, earliestLeaseEnd - now);
            }
            return Math.max(0, next);
        }
    }

    /**
     * What a claim transaction did.
     *
     * @param rows the leased rows in claim order
     * @param reclaimed how many expired leases were moved back to ready or to failed
     */
    record Claim(List<ClaimedRow> rows, int reclaimed) {
    }

    static Probe probe(JdbcTemplate jdbc, String queue) {
        return jdbc.query(PROBE, rows -> {
            rows.next();
            long due = rows.getLong(1);
            Long earliestDue = rows.wasNull() ? null : due;
            long leaseEnd = rows.getLong(2);
            Long earliestLeaseEnd = rows.wasNull() ? null : leaseEnd;
            return new Probe(earliestDue, earliestLeaseEnd);
        }, queue);
    }

    static int reclaim(JdbcTemplate jdbc, String queue, long now) {
        return jdbc.update(RECLAIM, now, queue);
    }

    /**
     * Reclaims expired leases when asked to look for them, then leases up to {@code limit} due rows.
     *
     * @param lookForExpired false when the caller knows no lease can have expired since its last look
     */
    static Claim claim(JdbcTemplate jdbc, String queue, long now, long leaseMillis, int limit,
                       boolean lookForExpired) {
        int reclaimed = lookForExpired
                && Boolean.TRUE.equals(jdbc.queryForObject(ANY_EXPIRED, Boolean.class, queue, now))
                ? reclaim(jdbc, queue, now) : 0;
        long leaseUntil = Durations.addToTimestamp(now, leaseMillis, "lease");
        List<ClaimedRow> rows = new ArrayList<>(Math.min(limit, 64));
        List<Long> dueTimes = new ArrayList<>(Math.min(limit, 64));
        jdbc.query(CLAIM, row -> {
            rows.add(new ClaimedRow(row.getLong(1), row.getBytes(2), row.getInt(3), row.getString(4),
                    row.getLong(5)));
            dueTimes.add(row.getLong(6));
        }, Receipts.newPrefix(), leaseUntil, now, queue, limit);
        if (rows.size() > 1) {
            sortInClaimOrder(rows, dueTimes);
        }
        return new Claim(rows, reclaimed);
    }

    /** RETURNING gives no order; restore the claim order of the index walk. */
    private static void sortInClaimOrder(List<ClaimedRow> rows, List<Long> dueTimes) {
        List<Integer> order = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(dueTimes::get).thenComparingLong(i -> rows.get(i).id()));
        List<ClaimedRow> sorted = new ArrayList<>(rows.size());
        for (int index : order) {
            sorted.add(rows.get(index));
        }
        rows.clear();
        rows.addAll(sorted);
    }
}
