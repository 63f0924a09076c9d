package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.LimitChanges;
import io.localqueue.internal.store.LimitedClaim;
import io.localqueue.internal.store.QueueLimits;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A queue's limits, stored in its row of {@code queue_controls} so that every process on the file obeys the same,
 * and what a claim under them reads and writes: leased rows counted through indexes (the slot is the lease), the jobs
 * a full key holds back ({@link HeldPriority}) and the rate limit's log of claims per part of its period, with the count its
 * period holds kept beside the limit so that a claim reads one number.
 */
final class LimitStatements {

    /**
     * A term that holds while the queue bound at {@code ?%d} is paused or has a limit: plain claims put it in their
     * statement and take nothing then, so a queue without controls runs no statement more.
     */
    private static final String CONTROLLED = """
            EXISTS (SELECT 1 FROM queue_controls WHERE queue = ?%d AND (paused_at IS NOT NULL
                    OR max_concurrent IS NOT NULL OR max_per_key IS NOT NULL OR rate_permits IS NOT NULL))""";

    /**
     * A queue's controls, whether it has held rows, its rate log's first entry, and the claims the log holds in the
     * rate limit's period before {@code ?2}, the claim's time (two seeks of its running totals); an index seek each.
     */
    static final String CONTROLS = """
            SELECT paused_at IS NOT NULL, COALESCE(max_concurrent, 0), COALESCE(max_per_key, 0),
                   COALESCE(rate_permits, 0), COALESCE(rate_period, 0),
                   EXISTS (SELECT 1 FROM messages INDEXED BY %1$s WHERE queue = ?1 AND %2$s),
                   (SELECT MIN(claimed_at) FROM queue_claims WHERE queue = ?1),
                   CASE WHEN rate_permits IS NULL THEN 0 ELSE
                       COALESCE((SELECT total FROM queue_claims WHERE queue = ?1 ORDER BY claimed_at DESC LIMIT 1), 0)
                       - COALESCE((SELECT total FROM queue_claims WHERE queue = ?1 AND claimed_at <= ?2 - rate_period
                                    ORDER BY claimed_at DESC LIMIT 1),
                                  (SELECT total - taken FROM queue_claims WHERE queue = ?1 ORDER BY claimed_at LIMIT 1),
                                  0) END
              FROM queue_controls WHERE queue = ?1""".formatted(SqliteSchema.HELD_INDEX, "status = 0 AND priority > "
            + HeldPriority.CLAIMABLE);

    private static final String ENSURE_ROW = "INSERT INTO queue_controls (queue) VALUES (?) ON CONFLICT DO NOTHING";

    private static final String SET_MAX_CONCURRENT = "UPDATE queue_controls SET max_concurrent = ?2 WHERE queue = ?1";

    private static final String SET_MAX_PER_KEY = "UPDATE queue_controls SET max_per_key = ?2 WHERE queue = ?1";

    private static final String SET_RATE =
            "UPDATE queue_controls SET rate_permits = ?2, rate_period = ?3 WHERE queue = ?1";

    private static final String HELD = "status = 0 AND priority > " + HeldPriority.CLAIMABLE;

    /** Gives every held row of the queue back its priority, when the per-key limit is lifted. */
    private static final String RELEASE_ALL = "UPDATE messages SET priority = priority - " + HeldPriority.SHIFT
            + " WHERE queue = ? AND " + HELD;

    private static final String LEASED = "SELECT COUNT(*) FROM messages WHERE queue = ?1 AND status = 1";

    /**
     * The keys with held rows, each found by one seek of the held index (a loose scan), with its leased rows (a seek of
     * the leased-keys index each).
     */
    static final String HELD_KEYS = """
            WITH RECURSIVE k(key) AS (
                SELECT (SELECT MIN(concurrency_key) FROM messages INDEXED BY %1$s WHERE queue = ?1 AND %2$s)
                UNION ALL
                SELECT (SELECT MIN(concurrency_key) FROM messages INDEXED BY %1$s
                         WHERE queue = ?1 AND %2$s AND concurrency_key > k.key)
                  FROM k WHERE k.key IS NOT NULL)
            SELECT key, (SELECT COUNT(*) FROM messages INDEXED BY %3$s
                          WHERE queue = ?1 AND concurrency_key = k.key AND status = 1)
              FROM k WHERE key IS NOT NULL""".formatted(SqliteSchema.HELD_INDEX, HELD, SqliteSchema.LEASED_KEYS_INDEX);

    /** Gives the first {@code ?3} held rows of a key, in claim order, their priority back. */
    static final String RELEASE = """
            UPDATE messages SET priority = priority - %3$d
             WHERE id IN (SELECT id FROM messages INDEXED BY %1$s WHERE queue = ?1 AND concurrency_key = ?2 AND %2$s
                           ORDER BY priority, available_at, id LIMIT ?3)"""
            .formatted(SqliteSchema.HELD_INDEX, HELD, HeldPriority.SHIFT);

    private static final String HOLD = """
            UPDATE messages SET priority = priority + %d
             WHERE id IN (SELECT value FROM json_each(?1)) AND status = 0 AND priority <= %d"""
            .formatted(HeldPriority.SHIFT, HeldPriority.CLAIMABLE);

    /** The next priority above {@code ?2} with ready rows that are not held: one seek of the priority index. */
    private static final String NEXT_LEVEL = """
            SELECT MIN(priority) FROM messages INDEXED BY %s
             WHERE queue = ?1 AND status = 0 AND priority > ?2 AND priority <= %d"""
            .formatted(SqliteSchema.PRIORITY_INDEX, HeldPriority.CLAIMABLE);

    /**
     * The first due rows of the most urgent priority above {@code ?2} with ready rows that are not held (one seek of
     * the priority index inside the statement), by due time then id, each with its key's leased rows (a seek each).
     */
    static final String CANDIDATES = """
            SELECT id, priority, concurrency_key,
                   CASE WHEN concurrency_key IS NULL THEN 0
                        ELSE (SELECT COUNT(*) FROM messages AS l INDEXED BY %3$s
                               WHERE l.queue = ?1 AND l.concurrency_key = m.concurrency_key AND l.status = 1) END
              FROM messages AS m INDEXED BY %1$s
             WHERE queue = ?1 AND status = 0 AND available_at <= ?3
               AND priority = (SELECT MIN(priority) FROM messages INDEXED BY %1$s
                                WHERE queue = ?1 AND status = 0 AND priority > ?2 AND priority <= %2$d)
             ORDER BY available_at, id LIMIT ?4""".formatted(SqliteSchema.PRIORITY_INDEX, HeldPriority.CLAIMABLE,
            SqliteSchema.LEASED_KEYS_INDEX);

    private static final String HELD_COUNT =
            "SELECT COUNT(*) FROM messages INDEXED BY " + SqliteSchema.HELD_INDEX + " WHERE queue = ? AND " + HELD;

    private static final String FIRST_CLAIM_AFTER =
            "SELECT MIN(claimed_at) FROM queue_claims WHERE queue = ?1 AND claimed_at > ?2";

    /**
     * Adds a claim's count to the log, at its time or, should the clock have gone back, at the last entry's, with the
     * running total carried on from the last entry.
     */
    private static final String LOG_CLAIMS = """
            INSERT INTO queue_claims (queue, claimed_at, taken, total)
            SELECT ?1, MAX(?2, COALESCE(last.claimed_at, ?2)), ?3, COALESCE(last.total, 0) + ?3
              FROM (SELECT 1) LEFT JOIN (SELECT claimed_at, total FROM queue_claims WHERE queue = ?1
                                          ORDER BY claimed_at DESC LIMIT 1) AS last
             WHERE true
            ON CONFLICT (queue, claimed_at) DO UPDATE SET taken = taken + excluded.taken,
                                                          total = total + excluded.taken""";

    /** Deletes the entries before the last one at or before {@code ?2}, whose total the next count needs. */
    private static final String TRIM_CLAIMS = """
            DELETE FROM queue_claims
             WHERE queue = ?1 AND claimed_at < (SELECT MAX(claimed_at) FROM queue_claims
                                                 WHERE queue = ?1 AND claimed_at <= ?2)""";

    private static final String CLEAR_CLAIMS = "DELETE FROM queue_claims WHERE queue = ?";

    private LimitStatements() {
    }

    /**
     * A queue's controls as a claim reads them: its pause, its limits, whether it has held rows, when the first entry
     * of its rate log was made ({@link Long#MAX_VALUE} for none), and the claims of the rate limit's period.
     */
    record Controls(boolean paused, QueueLimits limits, boolean anyHeld, long firstClaim, int claimsInPeriod) {

        static final Controls NONE = new Controls(false, QueueLimits.NONE, false, Long.MAX_VALUE, 0);

        static long firstClaim(long claimedAt, boolean none) {
            return none ? Long.MAX_VALUE : claimedAt;
        }
    }

    /** The {@link #CONTROLLED} term with the queue at parameter {@code parameter}. */
    static String controlled(int parameter) {
        return CONTROLLED.formatted(parameter);
    }

    /**
     * Reads the queue's controls.
     *
     * @param now the claim's time, which the rate limit's period ends at
     */
    static Controls controls(Session session, String queue, long now) throws SQLException {
        return session.query(CONTROLS, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
        }, rows -> rows.next()
                ? new Controls(rows.getBoolean(1), new QueueLimits(rows.getInt(2), rows.getInt(3), rows.getInt(4),
                rows.getLong(5)), rows.getBoolean(6), Controls.firstClaim(rows.getLong(7), rows.wasNull()),
                rows.getInt(8))
                : Controls.NONE);
    }

    /** Reads the limits stored as the queue's. */
    static QueueLimits limits(Session session, String queue) throws SQLException {
        return controls(session, queue, 0).limits();
    }

    /**
     * Stores the limits a queue object was built with as the queue's; lifting the per-key limit gives its held rows
     * back, and lifting the rate limit empties its log.
     */
    static void set(Session session, String queue, LimitChanges changes) throws SQLException {
        session.update(ENSURE_ROW, statement -> statement.setString(1, queue));
        if (changes.maxConcurrent() != null) {
            setOrLift(session, SET_MAX_CONCURRENT, queue, changes.maxConcurrent());
        }
        if (changes.maxConcurrentPerKey() != null) {
            setOrLift(session, SET_MAX_PER_KEY, queue, changes.maxConcurrentPerKey());
            if (changes.maxConcurrentPerKey() == 0) {
                session.update(RELEASE_ALL, statement -> statement.setString(1, queue));
            }
        }
        Integer permits = changes.ratePermits();
        if (permits != null) {
            if (permits == 0) {
                session.update(CLEAR_CLAIMS, statement -> statement.setString(1, queue));
            }
            session.update(SET_RATE, statement -> {
                statement.setString(1, queue);
                if (permits > 0) {
                    statement.setInt(2, permits);
                    statement.setLong(3, changes.ratePeriodMillis());
                }
            });
        }
    }

    private static void setOrLift(Session session, String sql, String queue, int value) throws SQLException {
        session.update(sql, statement -> {
            statement.setString(1, queue);
            if (value > 0) {
                statement.setInt(2, value);
            }
        });
    }

    static long heldCount(Session session, String queue) throws SQLException {
        Long count = session.queryLong(HELD_COUNT, statement -> statement.setString(1, queue));
        return count == null ? 0 : count;
    }

    /** A claim's steps under limits, in its transaction on the writer's session. */
    static final class Steps implements LimitedClaim.Steps {

        private final ClaimStatements.Claim claim;
        private final Session session;
        private final String queue;
        private final Controls controls;

        Steps(ClaimStatements.Claim claim, Controls controls) {
            this.claim = claim;
            this.session = claim.session();
            this.queue = claim.queue();
            this.controls = controls;
        }

        @Override
        public int leased() throws SQLException {
            Long count = session.queryLong(LEASED, statement -> statement.setString(1, queue));
            return count == null ? 0 : Math.toIntExact(count);
        }

        @Override
        public int claimsInPeriod() {
            return controls.claimsInPeriod();
        }

        @Override
        public long firstClaimAfter(long cut) throws SQLException {
            Long first = session.queryLong(FIRST_CLAIM_AFTER, statement -> {
                statement.setString(1, queue);
                statement.setLong(2, cut);
            });
            return first == null ? claim.now() : first;
        }

        @Override
        public long firstLoggedClaim() {
            return controls.firstClaim();
        }

        @Override
        public void logClaims(long at, int count) throws SQLException {
            session.update(LOG_CLAIMS, statement -> {
                statement.setString(1, queue);
                statement.setLong(2, at);
                statement.setInt(3, count);
            });
        }

        @Override
        public void trimClaims(long cut) throws SQLException {
            session.update(TRIM_CLAIMS, statement -> {
                statement.setString(1, queue);
                statement.setLong(2, cut);
            });
        }

        @Override
        public void claimInOrder(int limit, List<ClaimedRow> rows) throws SQLException {
            ClaimStatements.claimInOrder(claim, limit, rows);
        }

        @Override
        public void walkByPriority() throws SQLException {
            ClaimStatements.walkByPriority(claim);
        }

        @Override
        public List<LimitedClaim.HeldKey> heldKeys() throws SQLException {
            if (!controls.anyHeld()) {
                return List.of();
            }
            return session.query(HELD_KEYS, statement -> statement.setString(1, queue), rows -> {
                List<LimitedClaim.HeldKey> keys = new ArrayList<>();
                while (rows.next()) {
                    keys.add(new LimitedClaim.HeldKey(rows.getString(1), rows.getInt(2)));
                }
                return keys;
            });
        }

        @Override
        public void release(String key, int count) throws SQLException {
            session.update(RELEASE, statement -> {
                statement.setString(1, queue);
                statement.setString(2, key);
                statement.setInt(3, count);
            });
        }

        @Override
        public @Nullable Integer nextLevel(long after) throws SQLException {
            Long level = session.queryLong(NEXT_LEVEL, statement -> {
                statement.setString(1, queue);
                statement.setLong(2, after);
            });
            return level == null ? null : Math.toIntExact(level);
        }

        @Override
        public List<LimitedClaim.Candidate> candidates(long after, int limit) throws SQLException {
            return session.query(CANDIDATES, statement -> {
                statement.setString(1, queue);
                statement.setLong(2, after);
                statement.setLong(3, claim.now());
                statement.setInt(4, limit);
            }, rows -> {
                List<LimitedClaim.Candidate> candidates = new ArrayList<>();
                while (rows.next()) {
                    candidates.add(new LimitedClaim.Candidate(rows.getLong(1), rows.getInt(2), rows.getString(3),
                            rows.getInt(4)));
                }
                return candidates;
            });
        }

        @Override
        public int leaseFirstEligible(int perKey, int window, List<ClaimedRow> rows) throws SQLException {
            return ClaimStatements.leaseFirstEligible(claim, perKey, window, rows);
        }

        @Override
        public void lease(List<Long> ids, List<ClaimedRow> rows) throws SQLException {
            ClaimStatements.leaseChosen(claim, ids, rows);
        }

        @Override
        public void hold(List<Long> ids) throws SQLException {
            session.update(HOLD, statement -> statement.setString(1, ids.toString()));
        }
    }
}
