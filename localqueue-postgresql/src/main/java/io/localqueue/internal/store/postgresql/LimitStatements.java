package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.LimitChanges;
import io.localqueue.internal.store.LimitedClaim;
import io.localqueue.internal.store.QueueLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A queue's limits on PostgreSQL, stored in its row of {@code queue_controls} so that every host obeys the same, and
 * what a claim under them reads and writes. A claim under limits locks that row first ({@code FOR UPDATE}), so the
 * claims of one limited queue run one at a time across hosts and each counts the leases the previous one committed:
 * counting and then claiming with {@code SKIP LOCKED} alone lets two claimers each see a free slot. Leased rows are
 * counted through partial indexes (the slot is the lease), a full key's jobs are held ({@link HeldPriority}), and the
 * rate limit keeps a log of claims per part of its period with the count its period holds beside the limit.
 */
final class LimitStatements {

    /**
     * A queue's controls and its rate log's first entry. A claim reads what it counts (leases, the log's totals, held
     * rows) in statements after this one: when this one waited for the lock another claim held, its own snapshot
     * predates that claim's commit, and only the row it locks is read again.
     */
    private static final String CONTROLS = """
            SELECT c.paused_at IS NOT NULL, COALESCE(c.max_concurrent, 0), COALESCE(c.max_per_key, 0),
                   COALESCE(c.rate_permits, 0), COALESCE(c.rate_period, 0),
                   (SELECT min(l.claimed_at) FROM %1$s.queue_claims AS l WHERE l.queue = c.queue)
              FROM %1$s.queue_controls AS c WHERE c.queue = ?""";

    /** The claims the log holds after the cut, by the running totals of two entries (a seek each). */
    private static final String CLAIMS_AFTER = """
            SELECT COALESCE((SELECT total FROM %1$s.queue_claims WHERE queue = ? ORDER BY claimed_at DESC LIMIT 1), 0)
                 - COALESCE((SELECT total FROM %1$s.queue_claims WHERE queue = ? AND claimed_at <= ?
                              ORDER BY claimed_at DESC LIMIT 1),
                            (SELECT total - taken FROM %1$s.queue_claims WHERE queue = ? ORDER BY claimed_at LIMIT 1),
                            0)""";

    private static final String LOCK_CONTROLS = CONTROLS + " FOR UPDATE OF c";

    private static final String ENSURE_ROW =
            "INSERT INTO %1$s.queue_controls (queue) VALUES (?) ON CONFLICT DO NOTHING";

    private static final String SET_MAX_CONCURRENT =
            "UPDATE %1$s.queue_controls SET max_concurrent = ? WHERE queue = ?";

    private static final String SET_MAX_PER_KEY = "UPDATE %1$s.queue_controls SET max_per_key = ? WHERE queue = ?";

    private static final String SET_RATE =
            "UPDATE %1$s.queue_controls SET rate_permits = ?, rate_period = ? WHERE queue = ?";

    private static final String HELD = "status = 0 AND priority > " + HeldPriority.CLAIMABLE;

    private static final String RELEASE_ALL = "UPDATE %1$s.messages SET priority = priority - " + HeldPriority.SHIFT
            + " WHERE queue = ? AND " + HELD;

    private static final String LEASED = "SELECT count(*) FROM %1$s.messages WHERE queue = ? AND status = 1";

    /** The keys with held rows, each found by one seek of the held index (a loose scan), with its leased rows. */
    private static final String HELD_KEYS = """
            WITH RECURSIVE k(key) AS (
                (SELECT concurrency_key FROM %1$s.messages WHERE queue = ? AND %2$s ORDER BY concurrency_key LIMIT 1)
                UNION ALL
                SELECT (SELECT r.concurrency_key FROM %1$s.messages AS r
                         WHERE r.queue = ? AND %2$s AND r.concurrency_key > k.key
                         ORDER BY r.concurrency_key LIMIT 1)
                  FROM k WHERE k.key IS NOT NULL)
            SELECT key, (SELECT count(*) FROM %1$s.messages AS l
                          WHERE l.queue = ? AND l.concurrency_key = k.key AND l.status = 1)
              FROM k WHERE key IS NOT NULL""".replace("%2$s", HELD);

    /** Gives the first held rows of a key, in claim order, their priority back. */
    private static final String RELEASE = """
            UPDATE %1$s.messages SET priority = priority - %3$s
             WHERE id IN (SELECT id FROM %1$s.messages WHERE queue = ? AND concurrency_key = ? AND %2$s
                           ORDER BY priority, available_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"""
            .replace("%2$s", HELD).replace("%3$s", Integer.toString(HeldPriority.SHIFT));

    private static final String HOLD = """
            UPDATE %1$s.messages SET priority = priority + %2$s
             WHERE id = ANY (?) AND status = 0 AND priority <= %3$s"""
            .replace("%2$s", Integer.toString(HeldPriority.SHIFT))
            .replace("%3$s", Integer.toString(HeldPriority.CLAIMABLE));

    /** The next priority above the given one with ready rows that are not held: one seek of the claim-order index. */
    private static final String NEXT_LEVEL = """
            SELECT min(priority) FROM %1$s.messages WHERE queue = ? AND status = 0 AND priority > ? AND priority <= """
            + HeldPriority.CLAIMABLE;

    /**
     * The first due rows of the most urgent priority above the given one with ready rows that are not held (one seek
     * of the claim-order index inside the statement), by due time then id, each with its key's leased rows.
     */
    private static final String CANDIDATES = """
            SELECT m.id, m.priority, m.concurrency_key,
                   CASE WHEN m.concurrency_key IS NULL THEN 0
                        ELSE (SELECT count(*) FROM %1$s.messages AS l
                               WHERE l.queue = m.queue AND l.concurrency_key = m.concurrency_key AND l.status = 1) END
              FROM %1$s.messages AS m
             WHERE m.queue = ? AND m.status = 0 AND m.available_at <= ?
               AND m.priority = (SELECT min(priority) FROM %1$s.messages
                                  WHERE queue = ? AND status = 0 AND priority > ? AND priority <= %2$s)
             ORDER BY m.available_at, m.id LIMIT ? FOR UPDATE OF m SKIP LOCKED""".replace("%2$s",
            Integer.toString(HeldPriority.CLAIMABLE));

    private static final String HELD_COUNT = "SELECT count(*) FROM %1$s.messages WHERE queue = ? AND " + HELD;

    private static final String FIRST_CLAIM_AFTER =
            "SELECT min(claimed_at) FROM %1$s.queue_claims WHERE queue = ? AND claimed_at > ?";

    /**
     * Adds a claim's count to the log, at its time or, should the clock have gone back, at the last entry's, with the
     * running total carried on from the last entry.
     */
    private static final String LOG_CLAIMS = """
            INSERT INTO %1$s.queue_claims (queue, claimed_at, taken, total)
            SELECT ?, greatest(?, last.claimed_at), ?, COALESCE(last.total, 0) + ?
              FROM (SELECT 1) AS one LEFT JOIN LATERAL (
                   SELECT claimed_at, total FROM %1$s.queue_claims WHERE queue = ?
                    ORDER BY claimed_at DESC LIMIT 1) AS last ON true
            ON CONFLICT (queue, claimed_at) DO UPDATE SET taken = queue_claims.taken + EXCLUDED.taken,
                                                          total = queue_claims.total + EXCLUDED.taken""";

    /** Deletes the entries before the last one at or before the cut, whose total the next count needs. */
    private static final String TRIM_CLAIMS = """
            DELETE FROM %1$s.queue_claims
             WHERE queue = ? AND claimed_at < (SELECT max(claimed_at) FROM %1$s.queue_claims
                                                WHERE queue = ? AND claimed_at <= ?)""";

    private static final String CLEAR_CLAIMS = "DELETE FROM %1$s.queue_claims WHERE queue = ?";

    /** The smallest priority a smallint column holds, less one: every stored priority is above it. */
    private static final int BELOW_EVERY_PRIORITY = Short.MIN_VALUE - 1;

    private LimitStatements() {
    }

    /**
     * A queue's controls as a claim reads them: its pause, its limits, and when the first entry of its rate log was
     * made ({@link Long#MAX_VALUE} for none).
     */
    record Controls(boolean paused, QueueLimits limits, long firstClaim) {

        static final Controls NONE = new Controls(false, QueueLimits.NONE, Long.MAX_VALUE);

        static long firstClaim(long claimedAt, boolean none) {
            return none ? Long.MAX_VALUE : claimedAt;
        }
    }

    /** Reads the limits stored as the queue's. */
    static QueueLimits limits(Connection connection, String schema, String queue) throws SQLException {
        return read(connection, CONTROLS.formatted(schema), queue).limits();
    }

    /** Reads the queue's controls and locks their row until the transaction ends, when the queue has one. */
    static Controls lockControls(Connection connection, String schema, String queue) throws SQLException {
        return read(connection, LOCK_CONTROLS.formatted(schema), queue);
    }

    private static Controls read(Connection connection, String sql, String queue) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, queue);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? new Controls(rows.getBoolean(1), new QueueLimits(rows.getInt(2), rows.getInt(3),
                        rows.getInt(4), rows.getLong(5)), Controls.firstClaim(rows.getLong(6), rows.wasNull()))
                        : Controls.NONE;
            }
        }
    }

    /**
     * Stores the limits a queue object was built with as the queue's; lifting the per-key limit gives its held rows
     * back, and lifting the rate limit empties its log.
     */
    static void set(Connection connection, String schema, String queue, LimitChanges changes) throws SQLException {
        update(connection, ENSURE_ROW.formatted(schema), queue);
        lockControls(connection, schema, queue);
        if (changes.maxConcurrent() != null) {
            setOrLift(connection, SET_MAX_CONCURRENT.formatted(schema), queue, changes.maxConcurrent());
        }
        if (changes.maxConcurrentPerKey() != null) {
            setOrLift(connection, SET_MAX_PER_KEY.formatted(schema), queue, changes.maxConcurrentPerKey());
            if (changes.maxConcurrentPerKey() == 0) {
                update(connection, RELEASE_ALL.formatted(schema), queue);
            }
        }
        Integer permits = changes.ratePermits();
        if (permits != null) {
            if (permits == 0) {
                update(connection, CLEAR_CLAIMS.formatted(schema), queue);
            }
            try (PreparedStatement set = connection.prepareStatement(SET_RATE.formatted(schema))) {
                set.setObject(1, permits > 0 ? permits : null, java.sql.Types.INTEGER);
                set.setObject(2, permits > 0 ? changes.ratePeriodMillis() : null, java.sql.Types.BIGINT);
                set.setString(3, queue);
                set.executeUpdate();
            }
        }
    }

    private static void setOrLift(Connection connection, String sql, String queue, int value) throws SQLException {
        try (PreparedStatement set = connection.prepareStatement(sql)) {
            set.setObject(1, value > 0 ? value : null, java.sql.Types.INTEGER);
            set.setString(2, queue);
            set.executeUpdate();
        }
    }

    private static void update(Connection connection, String sql, String queue) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(1, queue);
            update.executeUpdate();
        }
    }

    static long heldCount(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(HELD_COUNT.formatted(schema))) {
            count.setString(1, queue);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** A claim's steps under limits, in its transaction, after it locked the queue's controls. */
    static final class Steps implements LimitedClaim.Steps {

        private final ClaimStatements.Claim claim;
        private final Connection connection;
        private final String schema;
        private final String queue;
        private final Controls controls;

        Steps(ClaimStatements.Claim claim, Controls controls) {
            this.claim = claim;
            this.connection = claim.connection();
            this.schema = claim.schema();
            this.queue = claim.queue();
            this.controls = controls;
        }

        @Override
        public int leased() throws SQLException {
            try (PreparedStatement count = connection.prepareStatement(LEASED.formatted(schema))) {
                count.setString(1, queue);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    return Math.toIntExact(rows.getLong(1));
                }
            }
        }

        @Override
        public int claimsInPeriod() throws SQLException {
            try (PreparedStatement select = connection.prepareStatement(CLAIMS_AFTER.formatted(schema))) {
                select.setString(1, queue);
                select.setString(2, queue);
                select.setLong(3, claim.now() - controls.limits().ratePeriodMillis());
                select.setString(4, queue);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    return Math.toIntExact(rows.getLong(1));
                }
            }
        }

        @Override
        public long firstClaimAfter(long cut) throws SQLException {
            try (PreparedStatement select = connection.prepareStatement(FIRST_CLAIM_AFTER.formatted(schema))) {
                select.setString(1, queue);
                select.setLong(2, cut);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    long at = rows.getLong(1);
                    return rows.wasNull() ? claim.now() : at;
                }
            }
        }

        @Override
        public long firstLoggedClaim() {
            return controls.firstClaim();
        }

        @Override
        public void logClaims(long at, int count) throws SQLException {
            try (PreparedStatement log = connection.prepareStatement(LOG_CLAIMS.formatted(schema))) {
                log.setString(1, queue);
                log.setLong(2, at);
                log.setInt(3, count);
                log.setInt(4, count);
                log.setString(5, queue);
                log.executeUpdate();
            }
        }

        @Override
        public void trimClaims(long cut) throws SQLException {
            try (PreparedStatement trim = connection.prepareStatement(TRIM_CLAIMS.formatted(schema))) {
                trim.setString(1, queue);
                trim.setString(2, queue);
                trim.setLong(3, cut);
                trim.executeUpdate();
            }
        }

        @Override
        public void claimInOrder(int limit, List<ClaimedRow> rows) throws SQLException {
            ClaimStatements.leaseInOrder(claim, ClaimStatements.CLAIM_WITHIN_LIMITS, limit, false, rows);
        }

        @Override
        public void walkByPriority() {
            // every row has a priority on PostgreSQL
        }

        @Override
        public List<LimitedClaim.HeldKey> heldKeys() throws SQLException {
            try (PreparedStatement select = connection.prepareStatement(HELD_KEYS.formatted(schema))) {
                select.setString(1, queue);
                select.setString(2, queue);
                select.setString(3, queue);
                List<LimitedClaim.HeldKey> keys = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        keys.add(new LimitedClaim.HeldKey(rows.getString(1), rows.getInt(2)));
                    }
                }
                return keys;
            }
        }

        @Override
        public void release(String key, int count) throws SQLException {
            try (PreparedStatement release = connection.prepareStatement(RELEASE.formatted(schema))) {
                release.setString(1, queue);
                release.setString(2, key);
                release.setInt(3, count);
                release.executeUpdate();
            }
        }

        @Override
        public @Nullable Integer nextLevel(long after) throws SQLException {
            try (PreparedStatement next = connection.prepareStatement(NEXT_LEVEL.formatted(schema))) {
                next.setString(1, queue);
                next.setInt(2, (int) Math.max(after, BELOW_EVERY_PRIORITY));
                try (ResultSet rows = next.executeQuery()) {
                    rows.next();
                    int level = rows.getInt(1);
                    return rows.wasNull() ? null : level;
                }
            }
        }

        @Override
        public List<LimitedClaim.Candidate> candidates(long after, int limit) throws SQLException {
            try (PreparedStatement select = connection.prepareStatement(CANDIDATES.formatted(schema))) {
                select.setString(1, queue);
                select.setLong(2, claim.now());
                select.setString(3, queue);
                select.setInt(4, (int) Math.max(after, BELOW_EVERY_PRIORITY));
                select.setInt(5, limit);
                List<LimitedClaim.Candidate> candidates = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        candidates.add(new LimitedClaim.Candidate(rows.getLong(1), rows.getInt(2), rows.getString(3),
                                rows.getInt(4)));
                    }
                }
                return candidates;
            }
        }

        @Override
        public void lease(List<Long> ids, List<ClaimedRow> rows) throws SQLException {
            ClaimStatements.leaseChosen(claim, ids, rows);
        }

        @Override
        public void hold(List<Long> ids) throws SQLException {
            try (PreparedStatement hold = connection.prepareStatement(HOLD.formatted(schema))) {
                hold.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
                hold.executeUpdate();
            }
        }
    }
}
