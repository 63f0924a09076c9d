package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.TakeBackWords;
import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimHold;
import io.localqueue.internal.store.ClaimOrder;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.LimitedClaim;
import io.localqueue.internal.store.Receipts;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.StoredHeaders;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Claims on PostgreSQL: the read-only probe, the reclaim of expired leases and of the leases of processes that
 * ended, and the claim itself, each one statement.
 * Rows are picked {@code FOR UPDATE SKIP LOCKED}, so consumers on many hosts take disjoint rows without waiting for
 * each other, and a row another transaction is settling or reclaiming is left to it.
 */
final class ClaimStatements {

    /** Earliest due time of a ready row and earliest expiry of a lease; each reads one end of a partial index. */
    /**
     * The priorities a queue's ready rows have, ascending, each found by one seek of the claim-order index (a loose
     * scan): a plain queue has one. The queue is bound at both parameters.
     */
    static final String LEVELS = """
            levels (priority) AS (
                (SELECT priority FROM %1$s.messages WHERE queue = ? AND status = 0 ORDER BY priority LIMIT 1)
                UNION ALL
                SELECT (SELECT r.priority FROM %1$s.messages AS r
                         WHERE r.queue = ? AND r.status = 0 AND r.priority > levels.priority
                         ORDER BY r.priority LIMIT 1)
                  FROM levels WHERE levels.priority IS NOT NULL)""";

    /**
     * The earliest due time of a queue's ready rows, a scalar: the first row of each priority, two seeks per priority.
     * The queue is bound at all three parameters.
     */
    static final String EARLIEST_DUE = """
            (WITH RECURSIVE %2$s
             SELECT min((SELECT r.available_at FROM %1$s.messages AS r
                          WHERE r.queue = ? AND r.status = 0 AND r.priority = levels.priority
                          ORDER BY r.available_at LIMIT 1))
               FROM levels WHERE levels.priority IS NOT NULL)""".replace("%2$s", LEVELS);

    /** How many parameters {@link #EARLIEST_DUE} binds, each the queue. */
    private static final int EARLIEST_DUE_PARAMETERS = 3;

    /** A term that holds while the queue bound at its parameter is paused for every host. */
    static final String PAUSED =
            "EXISTS (SELECT 1 FROM %1$s.queue_controls WHERE queue = ? AND paused_at IS NOT NULL)";

    private static final String PROBE = "SELECT " + EARLIEST_DUE + """
            ,
                   (SELECT min(lease_until) FROM %1$s.messages WHERE queue = ? AND status = 1),
                   """ + PAUSED;

    /** A term that holds while a lease of the queue bound at its first parameter ended by the time at its second. */
    private static final String EXPIRED = """
            EXISTS (SELECT 1 FROM %1$s.messages WHERE queue = ? AND status = 1 AND lease_until <= ?)""";

    private static final String ANY_EXPIRED = "SELECT " + EXPIRED;

    /**
     * What taking leases back sets, on the rows picked by the statement's {@code taken} subquery: ready again (keeping
     * its due time, so it keeps its place in line), or failed when its delivery budget is spent, with a last error
     * made of the first parameter, the delivery, the second, and an earlier error kept after it. The third parameter
     * is the time stamped on the rows.
     */
    private static final String TAKE_BACK = TakeBackWords.written("""
            UPDATE %1$s.messages AS m
               SET status = CASE WHEN m.attempts < m.max_attempts THEN 0 ELSE 3 END,
                   failure_reason = CASE WHEN m.attempts < m.max_attempts THEN m.failure_reason
                                         ELSE {retries_exhausted} END,
                   last_error = CASE WHEN m.attempts < m.max_attempts THEN m.last_error
                                     ELSE ?::text || m.attempts || ' of ' || m.max_attempts || ?::text
                                          || COALESCE('; before that: ' || m.last_error, '') END,
                   receipt = NULL, lease_until = NULL, updated_at = ?
            """);

    private static final String TAKEN_BACK = """

             WHERE m.id = taken.id
            RETURNING m.id, m.attempts, m.max_attempts, m.status, m.last_error""";

    /** Expired leases go back to ready, or to failed when their delivery budget is spent. */
    private static final String RECLAIM = TAKE_BACK + """
              FROM (SELECT id FROM %1$s.messages WHERE queue = ? AND status = 1 AND lease_until <= ?
                    FOR UPDATE SKIP LOCKED) AS taken""" + TAKEN_BACK;

    /**
     * The leases of a holder that ended go back to ready however long they had left, or to failed when their budget is
     * spent: the rows of the queue's leased index whose receipt begins with the holder's mark and name.
     */
    private static final String RECLAIM_ABANDONED = TAKE_BACK + """
              FROM (SELECT id FROM %1$s.messages WHERE queue = ? AND status = 1 AND starts_with(receipt, ?)
                    FOR UPDATE SKIP LOCKED) AS taken""" + TAKEN_BACK;

    /** The leases of a holder that ended take the claimer's budget before they are taken back. */
    private static final String BUDGET_ABANDONED = """
            UPDATE %1$s.messages SET max_attempts = ?
             WHERE queue = ? AND status = 1 AND starts_with(receipt, ?) AND max_attempts <> ?""";

    /**
     * The holders named by a queue's leases: the distinct names in the receipts of its leased rows (a handful per
     * host, from the leased rows' partial index) that begin with the holder mark.
     */
    private static final String HOLDERS = """
            SELECT DISTINCT substr(receipt, length(?) + 1, ?) FROM %1$s.messages
             WHERE queue = ? AND status = 1 AND starts_with(receipt, ?)""";

    /** Takes this host's liveness lock, a session advisory lock on a 63-bit key, without waiting. */
    private static final String TAKE_HOLDER_LOCK = "SELECT pg_try_advisory_lock(?)";

    /** Lets go of this host's liveness lock. */
    private static final String RELEASE_HOLDER_LOCK = "SELECT pg_advisory_unlock(?)";

    /**
     * Of the given keys, those no session of this database holds a session advisory lock on: a bigint key shows in
     * {@code pg_locks} as its high half in {@code classid}, its low half in {@code objid}, and {@code objsubid} 1.
     */
    private static final String UNHELD_KEYS = """
            SELECT k FROM unnest(?::bigint[]) AS k
             WHERE NOT EXISTS (SELECT 1 FROM pg_locks AS l
                                WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
                                  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                                  AND l.classid::bigint = k >> 32 AND l.objid::bigint = k & 4294967295)""";


    /** Expired leases take the claimer's budget before they are reclaimed, so the reclaim judges them by it. */
    private static final String BUDGET_EXPIRED = """
            UPDATE %1$s.messages SET max_attempts = ?
             WHERE queue = ? AND status = 1 AND lease_until <= ? AND max_attempts <> ?""";

    /**
     * A term that holds while the queue bound at its parameter is paused or has a limit: a claim that reads no
     * controls takes nothing then.
     */
    static final String CONTROLLED = """
            EXISTS (SELECT 1 FROM %1$s.queue_controls WHERE queue = ? AND (paused_at IS NOT NULL
                    OR max_concurrent IS NOT NULL OR max_per_key IS NOT NULL OR rate_permits IS NOT NULL))""";

    /** The parameters every lease binds first: the claimer's budget (0 for none), receipt prefix, lease end, time. */
    private static final String LEASE_PARAMETERS = """
            p AS (SELECT ?::integer AS budget, ?::text AS prefix, ?::bigint AS lease_until, ?::bigint AS now)""";

    /**
     * Leases the rows of the statement's {@code due}: the returned status tells a lease (1) from a row a claimer's
     * budget made a dead letter (3); without a budget of the claimer's ({@code 0}), every row keeps its own and is
     * leased. A held row ({@link HeldPriority}) gets its priority back.
     */
    private static final String LEASE_DUE = TakeBackWords.written("""
            UPDATE %1$s.messages AS m
               SET status = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN 3 ELSE 1 END,
                   receipt = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN NULL ELSE p.prefix || m.id END,
                   lease_until = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN NULL ELSE p.lease_until END,
                   failure_reason = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN {retries_exhausted}
                                         ELSE m.failure_reason END,
                   attempts = CASE WHEN p.budget > 0 AND m.attempts >= p.budget THEN m.attempts
                                   ELSE m.attempts + 1 END,
                   max_attempts = CASE WHEN p.budget > 0 THEN p.budget ELSE m.max_attempts END,
                   updated_at = p.now,
                   priority = %4$s
              FROM p, due
             WHERE m.id = due.id
            RETURNING m.id, m.payload, m.attempts, m.receipt, m.lease_until, m.available_at,
                      (SELECT headers FROM %1$s.message_headers AS h WHERE h.message_id = m.id), m.status, m.priority,
                      m.concurrency_key""").replace("%4$s", HeldPriority.released("m.priority"));

    /**
     * Leases the first due rows in claim order (priority, due time, id) from the claim-order index: priority by
     * priority from the most urgent, the due rows of each by due time then id (a walk that stops at the first row not
     * yet due, so a priority whose rows all wait holds nothing back), until the limit. The guard, a one-time term
     * ahead of the walk, takes nothing of a queue with controls (or, under limits, of a paused one), nor, when the
     * claim is to reclaim expired leases first, of a queue with one: the claim itself is then the look for them, which
     * costs no statement of its own when none ended.
     */
    private static String claim(String guard, String limit) {
        return """
                WITH RECURSIVE %5$s,
                %2$s,
                due AS (SELECT d.id FROM levels CROSS JOIN LATERAL (
                            SELECT r.id FROM %1$s.messages AS r
                             WHERE r.queue = ? AND r.status = 0 AND r.priority = levels.priority AND r.available_at <= ?
                             ORDER BY r.available_at, r.id LIMIT %6$s FOR UPDATE SKIP LOCKED) AS d
                         WHERE levels.priority IS NOT NULL AND NOT (%3$s OR (?::boolean AND %7$s)) LIMIT %6$s)
                """.replace("%5$s", LEASE_PARAMETERS).replace("%2$s", LEVELS).replace("%3$s", guard)
                .replace("%6$s", limit).replace("%7$s", EXPIRED) + LEASE_DUE;
    }

    /**
     * Leases the first due row in claim order with one ordered index scan, for a server whose index scans skip
     * (PostgreSQL 18 and later): the scan seeks past a priority's rows not yet due instead of reading them, as the
     * walk of {@link #claim(String, String)} does priority by priority, so the loose scan costs no recursive query.
     * The guard is as that walk's.
     */
    private static String claimFirst(String guard) {
        return """
                WITH %5$s,
                due AS (SELECT r.id FROM %1$s.messages AS r
                         WHERE r.queue = ? AND r.status = 0 AND r.available_at <= ?
                           AND NOT (%3$s OR (?::boolean AND %7$s))
                         ORDER BY r.priority, r.available_at, r.id LIMIT 1 FOR UPDATE SKIP LOCKED)
                """.replace("%5$s", LEASE_PARAMETERS).replace("%3$s", guard).replace("%7$s", EXPIRED) + LEASE_DUE;
    }

    /**
     * A claim in claim order, with its limit bound at two parameters or written in.
     *
     * @param sql the statement, the schema still to format in
     * @param limitBound whether the limit is bound (only a levelled claim binds it); when written in, the statement
     *                   takes that many rows at most
     * @param levelled whether it seeks the queue's priorities one by one ({@link #LEVELS}), which binds the queue at
     *                 two parameters more
     */
    record Lease(String sql, boolean limitBound, boolean levelled) {
    }

    /** The claim of a queue that reads no controls: it takes nothing of a queue that has some. */
    static final Lease CLAIM = new Lease(claim(CONTROLLED, "?"), true, true);

    /**
     * The claim of one row of a queue that reads no controls, {@code getNowait}'s: with the limit written in, the
     * server keeps one generic plan for it after its first executions, where with the limit bound it plans every
     * execution afresh (a generic plan of an unknown limit looks dearer than each custom one), which cost two thirds
     * of the claim's time.
     */
    static final Lease CLAIM_ONE = new Lease(claim(CONTROLLED, "1"), false, true);

    /**
     * The claim of one row of a queue that reads no controls on a server whose index scans skip: it takes less time
     * than {@link #CLAIM_ONE}'s walk, whose recursive seeks read the index's entries of rows settled since the last
     * vacuum twice.
     */
    static final Lease CLAIM_FIRST = new Lease(claimFirst(CONTROLLED), false, false);

    /** The first major version of PostgreSQL whose B-tree index scans skip over a leading column's values. */
    static final int SKIP_SCAN_SINCE = 18;

    /** The claim within the room a queue's limits leave, read under the lock of its controls. */
    static final Lease CLAIM_WITHIN_LIMITS = new Lease(claim(PAUSED, "?"), true, true);

    /** Leases the given rows, chosen and locked by a claim under a per-key limit. */
    static final String CLAIM_CHOSEN = "WITH " + LEASE_PARAMETERS
            + ",\ndue AS (SELECT unnest(?::bigint[]) AS id)\n" + LEASE_DUE;

    private ClaimStatements() {
    }

    /**
     * Binds the queue at the parameters of an {@link #EARLIEST_DUE} that opens a statement.
     *
     * @return the index of the statement's next parameter
     */
    static int bindEarliestDue(PreparedStatement statement, String queue) throws SQLException {
        for (int parameter = 1; parameter <= EARLIEST_DUE_PARAMETERS; parameter++) {
            statement.setString(parameter, queue);
        }
        return EARLIEST_DUE_PARAMETERS + 1;
    }

    static ClaimProbe probe(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement probe = connection.prepareStatement(PROBE.formatted(schema))) {
            int next = bindEarliestDue(probe, queue);
            probe.setString(next, queue);
            probe.setString(next + 1, queue);
            try (ResultSet rows = probe.executeQuery()) {
                rows.next();
                if (rows.getBoolean(3)) {
                    return ClaimProbe.PAUSED;
                }
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
            reclaim.setString(1, TakeBackWords.EXPIRED_WORDS);
            reclaim.setString(2, TakeBackWords.EXPIRED_REASON);
            reclaim.setLong(3, now);
            reclaim.setString(4, queue);
            reclaim.setLong(5, now);
            return takenBack(reclaim);
        }
    }

    /**
     * Takes back every lease of the queue that names one of the given holders, which have ended.
     *
     * @param holders holder names, each known to have ended
     * @param budget a delivery budget of the claimer's to judge them by, or 0 for each row's own
     */
    static List<ExpiredLease> reclaimAbandoned(Connection connection, String schema, String queue,
                                               List<String> holders, long now, int budget) throws SQLException {
        List<ExpiredLease> taken = new ArrayList<>();
        for (String holder : holders) {
            String prefix = Receipts.holderPrefix(holder);
            if (budget > 0) {
                try (PreparedStatement budgeted = connection.prepareStatement(BUDGET_ABANDONED.formatted(schema))) {
                    budgeted.setInt(1, budget);
                    budgeted.setString(2, queue);
                    budgeted.setString(3, prefix);
                    budgeted.setInt(4, budget);
                    budgeted.executeUpdate();
                }
            }
            try (PreparedStatement reclaim = connection.prepareStatement(RECLAIM_ABANDONED.formatted(schema))) {
                reclaim.setString(1, TakeBackWords.ABANDONED_WORDS);
                reclaim.setString(2, TakeBackWords.ABANDONED_REASON);
                reclaim.setLong(3, now);
                reclaim.setString(4, queue);
                reclaim.setString(5, prefix);
                taken.addAll(takenBack(reclaim));
            }
        }
        taken.sort(Comparator.comparingLong(ExpiredLease::id));
        return taken;
    }

    /**
     * Reads the distinct holders that a queue's leases name.
     *
     * @return holder names, unchecked
     */
    static List<String> holders(Connection connection, String schema, String queue) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(HOLDERS.formatted(schema))) {
            select.setString(1, Receipts.HOLDER_MARK);
            select.setInt(2, Receipts.HOLDER_LENGTH);
            select.setString(3, queue);
            select.setString(4, Receipts.HOLDER_MARK);
            List<String> names = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            return names;
        }
    }

    /**
     * Tries to take a liveness lock.
     *
     * @return false when another session holds that key
     */
    static boolean takeHolderLock(Connection connection, long key) throws SQLException {
        try (PreparedStatement take = connection.prepareStatement(TAKE_HOLDER_LOCK)) {
            take.setLong(1, key);
            try (ResultSet result = take.executeQuery()) {
                result.next();
                return result.getBoolean(1);
            }
        }
    }

    /** Lets go of a liveness lock this session holds. */
    static void releaseHolderLock(Connection connection, long key) throws SQLException {
        try (PreparedStatement release = connection.prepareStatement(RELEASE_HOLDER_LOCK)) {
            release.setLong(1, key);
            release.executeQuery().close();
        }
    }

    /**
     * Returns which of the given liveness keys no session of the database holds.
     *
     * @return the unheld keys
     */
    static List<Long> unheldKeys(Connection connection, long[] keys) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(UNHELD_KEYS)) {
            Long[] boxed = new Long[keys.length];
            for (int i = 0; i < keys.length; i++) {
                boxed[i] = keys[i];
            }
            select.setArray(1, connection.createArrayOf("bigint", boxed));
            List<Long> unheld = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    unheld.add(rows.getLong(1));
                }
            }
            return unheld;
        }
    }

    private static List<ExpiredLease> takenBack(PreparedStatement statement) throws SQLException {
        List<ExpiredLease> expired = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                expired.add(new ExpiredLease(rows.getLong(1), rows.getInt(2), rows.getInt(3),
                        rows.getInt(4) == RowStatus.FAILED, rows.getString(5)));
            }
        }
        expired.sort(Comparator.comparingLong(ExpiredLease::id));
        return expired;
    }

    /** Claims as {@link #claim(Connection, String, String, long, long, int, boolean, int, String)} does, naming no holder. */
    static ClaimBatch claim(Connection connection, String schema, String queue, long now, long leaseUntil, int limit,
                            boolean lookForExpired, int budget) throws SQLException {
        return claim(connection, schema, queue, now, leaseUntil, limit, lookForExpired, budget, null, c -> null);
    }

    /** Claims naming the given holder, in a transaction whose lock wait is set already. */
    static ClaimBatch claim(Connection connection, String schema, String queue, long now, long leaseUntil, int limit,
                            boolean lookForExpired, int budget, @Nullable String holder) throws SQLException {
        return claim(connection, schema, queue, now, leaseUntil, limit, lookForExpired, budget, holder, c -> null);
    }

    /**
     * Leases up to {@code limit} due rows, reclaiming expired leases first when asked to look for them: the claim takes
     * nothing while one has ended, and only then do the look, the reclaim and the claim again run. A look that finds
     * none after the claim saw one means another claimer reclaimed them meanwhile and claims beside this one, so the
     * claim comes back empty as one whose rows {@code SKIP LOCKED} passed over does.
     *
     * @param lookForExpired false when the caller knows no lease can have expired since its last look
     * @param budget a delivery budget of the claimer's to write onto every row it takes, or 0 for none
     * @param holder the claiming process's holder name, which the receipts carry, or null for none
     * @param lockWait sets the transaction's lock wait, run before any statement that may wait for another
     *                 transaction's lock; the claim of rows it finds unlocked waits for none, so it never runs it
     */
    static ClaimBatch claim(Connection connection, String schema, String queue, long now, long leaseUntil, int limit,
                            boolean lookForExpired, int budget, @Nullable String holder,
                            PostgresWrites.Work<?> lockWait) throws SQLException {
        List<ClaimedRow> rows = new ArrayList<>(Math.min(limit, 64));
        Claim claim = new Claim(connection, schema, queue, now, leaseUntil, budget, Receipts.newPrefix(holder));
        Lease lease = limit == 1 ? oneRow(connection) : CLAIM;
        if (leaseInOrder(claim, lease, limit, lookForExpired, rows) > 0) {
            return new ClaimBatch(ClaimOrder.sorted(rows), List.of());
        }
        List<ExpiredLease> reclaimed = List.of();
        if (lookForExpired && anyExpired(connection, schema, queue, now)) {
            lockWait.run(connection);
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
            if (leaseInOrder(claim, lease, limit, false, rows) > 0) {
                return new ClaimBatch(ClaimOrder.sorted(rows), reclaimed);
            }
        }
        lockWait.run(connection);
        LimitStatements.Controls controls = LimitStatements.lockControls(connection, schema, queue);
        ClaimHold hold = null;
        if (!controls.paused() && controls.limits().any()) {
            hold = LimitedClaim.claim(new LimitStatements.Steps(claim, controls), controls.limits(), limit,
                    now, rows);
        }
        return new ClaimBatch(ClaimOrder.sorted(rows), reclaimed, hold);
    }

    /**
     * Returns the claim of one row for the server behind a connection, whose version the driver read when it
     * connected: the ordered scan where index scans skip, the priority walk before.
     */
    static Lease oneRow(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseMajorVersion() >= SKIP_SCAN_SINCE ? CLAIM_FIRST : CLAIM_ONE;
    }

    /** One claim's parameters. */
    record Claim(Connection connection, String schema, String queue, long now, long leaseUntil, int budget,
                 String receiptPrefix) {
    }

    /**
     * Leases up to {@code limit} due rows in claim order with the given claim statement.
     *
     * @param limit the most rows to take; a statement with its limit written in takes at most that many
     * @param unlessExpired take nothing while a lease of the queue has ended
     * @return how many rows it took, leased or (with a budget) failed
     */
    static int leaseInOrder(Claim claim, Lease lease, int limit, boolean unlessExpired, List<ClaimedRow> rows)
            throws SQLException {
        try (PreparedStatement statement = claim.connection().prepareStatement(lease.sql().formatted(
                claim.schema()))) {
            int next = bindLease(claim, statement);
            if (lease.levelled()) {
                statement.setString(next++, claim.queue());
                statement.setString(next++, claim.queue());
            }
            statement.setString(next++, claim.queue());
            statement.setLong(next++, claim.now());
            if (lease.limitBound()) {
                statement.setInt(next++, limit);
            }
            statement.setString(next++, claim.queue());
            statement.setBoolean(next++, unlessExpired);
            statement.setString(next++, claim.queue());
            statement.setLong(next++, claim.now());
            if (lease.limitBound()) {
                statement.setInt(next, limit);
            }
            return taken(statement, claim.now(), rows);
        }
    }

    /** Leases the given rows, chosen and locked by a claim under a per-key limit, and adds those it leased. */
    static void leaseChosen(Claim claim, List<Long> ids, List<ClaimedRow> rows) throws SQLException {
        try (PreparedStatement statement = claim.connection().prepareStatement(
                CLAIM_CHOSEN.formatted(claim.schema()))) {
            int next = bindLease(claim, statement);
            statement.setArray(next, claim.connection().createArrayOf("bigint", ids.toArray()));
            taken(statement, claim.now(), rows);
        }
    }

    /**
     * Binds what every lease sets first: the budget, receipt prefix, lease end and time.
     *
     * @return the index of the statement's next parameter
     */
    private static int bindLease(Claim claim, PreparedStatement statement) throws SQLException {
        statement.setInt(1, claim.budget());
        statement.setString(2, claim.receiptPrefix());
        statement.setLong(3, claim.leaseUntil());
        statement.setLong(4, claim.now());
        return 5;
    }

    /**
     * Runs a lease and adds the rows it leased (not those a budget failed).
     *
     * @return how many rows it took
     */
    private static int taken(PreparedStatement statement, long now, List<ClaimedRow> rows) throws SQLException {
        int taken = 0;
        try (ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                taken++;
                if (result.getInt(8) == RowStatus.FAILED) {
                    continue;
                }
                rows.add(new ClaimedRow(result.getLong(1), result.getBytes(2), result.getInt(3),
                        result.getString(4), result.getLong(5), StoredHeaders.decode(result.getString(7)),
                        result.getLong(6), now, result.getInt(9), result.getString(10)));
            }
        }
        return taken;
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
