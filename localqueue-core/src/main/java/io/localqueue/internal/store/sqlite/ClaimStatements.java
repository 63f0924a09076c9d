package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.TakeBackWords;
import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimOrder;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.ClaimHold;
import io.localqueue.internal.store.HeldPriority;
import io.localqueue.internal.store.LimitedClaim;
import io.localqueue.internal.store.Receipts;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.StoredHeaders;
import io.localqueue.internal.store.sqlite.PriorityStatements.Sweep;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Claim: the read-only probe that keeps idle pollers off the write lock, lease reclaim (of expired leases, and of the
 * leases of processes that ended), and the claim itself.
 */
final class ClaimStatements {

    /**
     * Earliest due time of a ready row and earliest expiry of a lease, both walking an index from its start, and whether
     * the queue is paused.
     */
    static final String PROBE = """
            SELECT (SELECT MIN(available_at) FROM messages WHERE queue = ?1 AND status = 0),
                   (SELECT MIN(lease_until) FROM messages WHERE queue = ?1 AND status = 1),
                   """ + PauseStatements.paused(1);

    /**
     * What taking a lease back sets: ready again (keeping its due time, so it keeps its place in line), or failed when
     * its delivery budget is spent, with a last error made of {@code ?3}, the delivery, {@code ?4}, and an earlier
     * error kept after it.
     */
    private static final String TAKE_BACK = TakeBackWords.written("""
            UPDATE messages
               SET status = CASE WHEN attempts < max_attempts THEN 0 ELSE 3 END,
                   failure_reason = CASE WHEN attempts < max_attempts THEN failure_reason
                                         ELSE {retries_exhausted} END,
                   last_error = CASE WHEN attempts < max_attempts THEN last_error
                                     ELSE ?3 || attempts || ' of ' || max_attempts || ?4
                                          || COALESCE('; before that: ' || last_error, '') END,
                   receipt = NULL, lease_until = NULL, updated_at = ?1
            """);

    private static final String TAKEN_BACK = "\nRETURNING id, attempts, max_attempts, status, last_error";

    /** Expired leases go back to ready, or to failed when their delivery budget is spent. */
    static final String RECLAIM = TAKE_BACK + " WHERE queue = ?2 AND status = 1 AND lease_until <= ?1" + TAKEN_BACK;

    /**
     * The leases of a holder that ended go back to ready however long they had left, or to failed when their budget is
     * spent: the rows of the queue's leased index whose receipt begins with the holder's mark and name ({@code ?5}).
     */
    static final String RECLAIM_ABANDONED = TAKE_BACK
            + " WHERE queue = ?2 AND status = 1 AND substr(receipt, 1, length(?5)) = ?5" + TAKEN_BACK;


    /**
     * The holders named by a queue's leases: the distinct names in the receipts of its leased rows (a handful per
     * consumer process, found through the reference index) that begin with the holder mark ({@code ?2}).
     */
    static final String HOLDERS = """
            SELECT DISTINCT substr(receipt, length(?2) + 1, ?3) FROM messages
             WHERE queue = ?1 AND status = 1 AND substr(receipt, 1, length(?2)) = ?2""";

    /** The leases of a holder that ended take the claimer's budget before they are taken back. */
    static final String BUDGET_ABANDONED = """
            UPDATE messages SET max_attempts = ?3
             WHERE queue = ?1 AND status = 1 AND substr(receipt, 1, length(?2)) = ?2 AND max_attempts <> ?3""";

    /**
     * Whether any lease of the queue has expired. A read costs about half the reclaim update, which opens write
     * cursors on the table and every index even when nothing matches, so the claim runs it only when needed.
     */
    static final String ANY_EXPIRED =
            "SELECT EXISTS (SELECT 1 FROM messages WHERE queue = ?1 AND status = 1 AND lease_until <= ?2)";

    /** What a plain claim sets on each row it leases; a held row ({@link HeldPriority}) gets its priority back. */
    private static final String LEASE = """
            UPDATE messages
               SET status = 1, receipt = ?1 || id, lease_until = ?2, attempts = attempts + 1, updated_at = ?3,
                   priority = %s
            """.formatted(HeldPriority.released("priority"));

    /**
     * What the claim of a consumer with a delivery budget of its own (an event-bus subscription's retry policy) sets:
     * the budget onto every row it takes, and a row whose claims reached the budget already becomes a dead letter
     * ({@code retries_exhausted}) in the same statement instead of a lease; the returned status tells them apart.
     */
    private static final String LEASE_WITH_BUDGET = TakeBackWords.written("""
            UPDATE messages
               SET status = CASE WHEN attempts >= ?6 THEN 3 ELSE 1 END,
                   receipt = CASE WHEN attempts >= ?6 THEN NULL ELSE ?1 || id END,
                   lease_until = CASE WHEN attempts >= ?6 THEN NULL ELSE ?2 END,
                   failure_reason = CASE WHEN attempts >= ?6 THEN {retries_exhausted} ELSE failure_reason END,
                   attempts = CASE WHEN attempts >= ?6 THEN attempts ELSE attempts + 1 END,
                   max_attempts = ?6, updated_at = ?3, priority = %s
            """.formatted(HeldPriority.released("priority")));

    /**
     * The first due rows in claim order (due time, then id: a ready row's {@code lease_until} is NULL) from the
     * reference index, of a queue that never used priorities: for one that did, the term outside the walk (whose
     * lookup runs once) leaves none of the rows it found, and the claim goes by priority. The walk stops after
     * {@code LIMIT} rows and never visits rows that are not yet due, however many there are; inside it, the same term
     * did not stop the walk, which then read every due row of a prioritized backlog (80 ms a claim for 1,000,000). The
     * guard, a term outside the walk too, leaves none of a queue with controls.
     */
    private static String dueInOrder(String guard) {
        return """
                 WHERE id IN (SELECT id FROM messages INDEXED BY idx_messages_queue_status
                               WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                               ORDER BY available_at, lease_until, id LIMIT ?5)
                   AND NOT EXISTS (SELECT 1 FROM queue_priorities WHERE queue = ?4)
                """ + guard;
    }

    /**
     * The due rows of the first priority above {@code ?7} with ready rows, of a queue that uses priorities: one seek of
     * the priority index finds it, then its rows are walked by due time, then id, stopping at the first not yet due;
     * the guard leaves none of a queue with controls.
     */
    private static String dueOfNextPriority(String guard) {
        return """
                 WHERE id IN (SELECT id FROM messages INDEXED BY idx_messages_priority
                               WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                                 AND priority = (SELECT MIN(priority) FROM messages
                                                  WHERE queue = ?4 AND status = 0 AND priority > ?7)
                               ORDER BY available_at, id LIMIT ?5)
                """ + guard;
    }

    /**
     * What keeps a claim that reads no controls from taking rows of a queue that has some (paused, or with limits):
     * a term outside the walk, whose lookup runs once.
     */
    private static final String GUARD = "   AND NOT " + LimitStatements.controlled(4) + "\n";

    /** The given rows, still ready: the jobs a claim under a per-key limit chose ({@code ?5}, a JSON array of ids). */
    private static final String CHOSEN = "\n WHERE id IN (SELECT value FROM json_each(?5)) AND status = 0\n";

    /**
     * What a claim returns of each row it took, its headers from one rowid probe of {@code message_headers} in the
     * same statement.
     */
    private static final String CLAIMED = """
            RETURNING id, payload, attempts, receipt, lease_until, available_at,
                      (SELECT headers FROM message_headers WHERE message_id = messages.id), status, priority,
                      concurrency_key""";

    /**
     * The claim statements of one kind: in due order (with a delivery budget or not), and of the next priority (with a
     * budget or not).
     */
    private record Texts(String inOrder, String inOrderWithBudget, String nextPriority,
                         String nextPriorityWithBudget) {

        static Texts guarded(String guard) {
            return new Texts(LEASE + dueInOrder(guard) + CLAIMED, LEASE_WITH_BUDGET + dueInOrder(guard) + CLAIMED,
                    LEASE + dueOfNextPriority(guard) + CLAIMED, LEASE_WITH_BUDGET + dueOfNextPriority(guard) + CLAIMED);
        }
    }

    /** The claims of a queue that reads no controls: they take nothing of a queue that has some. */
    private static final Texts UNCONTROLLED = Texts.guarded(GUARD);

    /** The claims under limits that allow them: a paused queue or one without room never runs them. */
    private static final Texts WITHIN_LIMITS = Texts.guarded("");

    /** Leases the first due rows of a queue that never used priorities. */
    static final String CLAIM = UNCONTROLLED.inOrder();

    /** {@link #CLAIM} with a delivery budget. */
    static final String CLAIM_WITH_BUDGET = UNCONTROLLED.inOrderWithBudget();

    /** Leases the first due rows of the next priority. */
    static final String CLAIM_NEXT_PRIORITY = UNCONTROLLED.nextPriority();

    /** {@link #CLAIM_NEXT_PRIORITY} with a delivery budget. */
    static final String CLAIM_NEXT_PRIORITY_WITH_BUDGET = UNCONTROLLED.nextPriorityWithBudget();

    /**
     * The first due row of the next priority above {@code ?7} with ready rows that are not held, among its first
     * {@code ?8}, whose key has a free slot under a limit of {@code ?9} per key (its leased rows, a seek of the
     * leased-keys index, fewer than the limit), or that has no key: a claim of one job under a per-key limit in one
     * statement, without the window function a claim of several would need to rank a key's rows (which costs three
     * times the walk of the candidates it ranks).
     */
    private static final String FIRST_ELIGIBLE = """
             WHERE id = (SELECT id FROM (SELECT id, concurrency_key FROM messages INDEXED BY %2$s
                                          WHERE queue = ?4 AND status = 0 AND available_at <= ?3
                                            AND priority = (SELECT MIN(priority) FROM messages INDEXED BY %2$s
                                                             WHERE queue = ?4 AND status = 0 AND priority > ?7
                                                               AND priority <= %3$d)
                                          ORDER BY available_at, id LIMIT ?8) AS c
                          WHERE c.concurrency_key IS NULL
                             OR (SELECT COUNT(*) FROM messages AS l INDEXED BY %1$s
                                  WHERE l.queue = ?4 AND l.concurrency_key = c.concurrency_key AND l.status = 1) < ?9
                          LIMIT 1)
            """.formatted(SqliteSchema.LEASED_KEYS_INDEX, SqliteSchema.PRIORITY_INDEX, HeldPriority.CLAIMABLE);

    /** Leases the first due row whose key has a free slot, in one statement. */
    static final String CLAIM_FIRST_ELIGIBLE = LEASE + FIRST_ELIGIBLE + CLAIMED;

    /** {@link #CLAIM_FIRST_ELIGIBLE} with a delivery budget. */
    static final String CLAIM_FIRST_ELIGIBLE_WITH_BUDGET = LEASE_WITH_BUDGET + FIRST_ELIGIBLE + CLAIMED;

    /** Leases the given due rows. */
    static final String CLAIM_CHOSEN = LEASE + CHOSEN + CLAIMED;

    /** {@link #CLAIM_CHOSEN} with a delivery budget. */
    static final String CLAIM_CHOSEN_WITH_BUDGET = LEASE_WITH_BUDGET + CHOSEN + CLAIMED;

    /**
     * The next priority above {@code ?2} with ready rows in the queue, due or not: one seek of the priority index.
     */
    static final String NEXT_PRIORITY =
            "SELECT MIN(priority) FROM messages WHERE queue = ?1 AND status = 0 AND priority > ?2";

    /** Expired leases take the claimer's budget before they are reclaimed, so the reclaim judges them by it. */
    static final String BUDGET_EXPIRED = """
            UPDATE messages SET max_attempts = ?3
             WHERE queue = ?1 AND status = 1 AND lease_until <= ?2 AND max_attempts <> ?3""";

    private ClaimStatements() {
    }

    static ClaimProbe probe(Session session, String queue) throws SQLException {
        return session.query(PROBE, statement -> statement.setString(1, queue), rows -> {
            rows.next();
            if (rows.getBoolean(3)) {
                return ClaimProbe.PAUSED;
            }
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
            statement.setString(3, TakeBackWords.EXPIRED_WORDS);
            statement.setString(4, TakeBackWords.EXPIRED_REASON);
        }, ClaimStatements::takenBack);
    }

    /**
     * Takes back every lease of the queue that names one of the given holders, which have ended.
     *
     * @param holders holder names, each known to have ended
     * @param budget a delivery budget of the claimer's to judge them by, or 0 for each row's own
     */
    static List<ExpiredLease> reclaimAbandoned(Session session, String queue, List<String> holders, long now,
                                               int budget) throws SQLException {
        List<ExpiredLease> taken = new ArrayList<>();
        for (String holder : holders) {
            String prefix = Receipts.holderPrefix(holder);
            if (budget > 0) {
                session.update(BUDGET_ABANDONED, statement -> {
                    statement.setString(1, queue);
                    statement.setString(2, prefix);
                    statement.setInt(3, budget);
                });
            }
            taken.addAll(session.query(RECLAIM_ABANDONED, statement -> {
                statement.setLong(1, now);
                statement.setString(2, queue);
                statement.setString(3, TakeBackWords.ABANDONED_WORDS);
                statement.setString(4, TakeBackWords.ABANDONED_REASON);
                statement.setString(5, prefix);
            }, ClaimStatements::takenBack));
        }
        return taken;
    }

    /**
     * Reads the distinct holders that a queue's leases name.
     *
     * @return holder names, unchecked
     */
    static List<String> holders(Session session, String queue) throws SQLException {
        return session.query(HOLDERS, statement -> {
            statement.setString(1, queue);
            statement.setString(2, Receipts.HOLDER_MARK);
            statement.setInt(3, Receipts.HOLDER_LENGTH);
        }, rows -> {
            List<String> names = new ArrayList<>();
            while (rows.next()) {
                names.add(rows.getString(1));
            }
            return names;
        });
    }

    private static List<ExpiredLease> takenBack(ResultSet rows) throws SQLException {
        List<ExpiredLease> expired = new ArrayList<>();
        while (rows.next()) {
            expired.add(new ExpiredLease(rows.getLong(1), rows.getInt(2), rows.getInt(3),
                    rows.getInt(4) == RowStatus.FAILED, rows.getString(5)));
        }
        return expired;
    }

    /**
     * Reclaims expired leases when asked to look for them, then leases up to {@code limit} due rows
     * ({@link #claimDue}).
     *
     * @param lookForExpired false when the caller knows no lease can have expired since its last look
     * @param holder the claiming process's holder name, which the receipts carry, or null for none
     */
    static ClaimBatch claim(Session session, String queue, long now, long leaseUntil, int limit,
                            boolean lookForExpired, int budget, @Nullable String holder) throws SQLException {
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
        Claim claim = new Claim(session, queue, now, leaseUntil, budget, Receipts.newPrefix(holder));
        ClaimHold hold = claimDue(claim, limit, rows);
        return new ClaimBatch(ClaimOrder.sorted(rows), reclaimed, hold);
    }

    /** One claim's parameters. */
    record Claim(Session session, String queue, long now, long leaseUntil, int budget, String receiptPrefix) {
    }

    /**
     * Leases up to {@code limit} due rows: a queue first tries its plain claim (one statement, or by priority for a
     * queue that uses priorities), which takes nothing of a queue with controls, unless this connection found it with
     * controls last time; when that took nothing, the claim reads the controls: a queue with limits claims within
     * them ({@link LimitedClaim}), read in its transaction, and a paused one takes nothing.
     *
     * @return why due rows were left, when limits left some
     */
    private static @Nullable ClaimHold claimDue(Claim claim, int limit, List<ClaimedRow> rows) throws SQLException {
        Session session = claim.session();
        boolean triedPlain = !session.knownControlled(claim.queue());
        if (triedPlain) {
            claimInOrder(claim, limit, rows, UNCONTROLLED);
            if (!rows.isEmpty()) {
                return null;
            }
        }
        LimitStatements.Controls controls = LimitStatements.controls(session, claim.queue(), claim.now());
        session.rememberControlled(claim.queue(), controls.paused() || controls.limits().any());
        if (controls.paused()) {
            return null;
        }
        if (controls.limits().any()) {
            return LimitedClaim.claim(new LimitStatements.Steps(claim, controls), controls.limits(), limit,
                    claim.now(), rows);
        }
        if (!triedPlain) {
            claimInOrder(claim, limit, rows, UNCONTROLLED);
        }
        return null;
    }

    /**
     * Leases up to {@code limit} due rows, within limits that allow them, in claim order: see
     * {@link #claimInOrder(Claim, int, List, Texts)}.
     */
    static void claimInOrder(Claim claim, int limit, List<ClaimedRow> rows) throws SQLException {
        claimInOrder(claim, limit, rows, WITHIN_LIMITS);
    }

    /**
     * Leases up to {@code limit} due rows with the given statements: in due order for a queue that never used
     * priorities, in one statement; by priority for one that did, which the plain claim, taking nothing, gives way to
     * (and which this connection then claims by priority straight away), after sweeping its rows without a priority
     * unless this connection found none lately and the priority index has enough due rows.
     */
    private static void claimInOrder(Claim claim, int limit, List<ClaimedRow> rows, Texts texts)
            throws SQLException {
        Session session = claim.session();
        String queue = claim.queue();
        if (!session.knownPrioritized(queue)) {
            Taken plain = lease(claim, claim.budget() > 0 ? texts.inOrderWithBudget() : texts.inOrder(), limit,
                    null, rows);
            if (plain.count() > 0) {
                return;
            }
        }
        boolean looked = !session.caughtUpWithin(queue, claim.now(), PriorityStatements.SWEEP_AGAIN_AFTER_MILLIS);
        if (looked && sweep(session, queue, claim.now()) == Sweep.NOT_USED) {
            if (session.knownPrioritized(queue)) {
                // only a first prioritized put of this connection's that was rolled back leaves it so
                session.forgetPrioritized(queue);
                claimInOrder(claim, limit, rows, texts);
            }
            return;
        }
        claimByPriority(claim, limit, rows, texts);
        if (rows.size() < limit && !looked && sweep(session, queue, claim.now()) == Sweep.SWEPT) {
            claimByPriority(claim, limit, rows, texts);
        }
    }

    /**
     * Makes the queue use priorities, and sweeps its rows without one as a claim by priority does, so that a walk of
     * the priority index sees every row.
     */
    static void walkByPriority(Claim claim) throws SQLException {
        Session session = claim.session();
        PriorityStatements.start(session, claim.queue());
        if (!session.caughtUpWithin(claim.queue(), claim.now(), PriorityStatements.SWEEP_AGAIN_AFTER_MILLIS)) {
            sweep(session, claim.queue(), claim.now());
        }
    }

    /** Sweeps the queue's rows without a priority and remembers what this connection found. */
    private static Sweep sweep(Session session, String queue, long now) throws SQLException {
        Sweep sweep = PriorityStatements.sweep(session, queue);
        if (sweep == Sweep.CAUGHT_UP) {
            session.rememberCaughtUp(queue, now);
        } else if (sweep == Sweep.SWEPT) {
            session.rememberBehind(queue);
        }
        return sweep;
    }

    /**
     * Leases the due rows of a queue that uses priorities, one priority at a time from the most urgent: each step
     * takes the due rows of the next priority with ready rows (found by one seek inside the claim), until
     * {@code limit} are leased or no priority is left. A priority whose rows are all not yet due costs one seek more
     * and holds nothing back.
     */
    private static void claimByPriority(Claim claim, int limit, List<ClaimedRow> rows, Texts texts)
            throws SQLException {
        long after = Long.MIN_VALUE;
        while (rows.size() < limit) {
            int asked = limit - rows.size();
            Taken taken = lease(claim, claim.budget() > 0 ? texts.nextPriorityWithBudget() : texts.nextPriority(),
                    asked, after, rows);
            if (taken.count() == asked) {
                continue;
            }
            if (taken.count() > 0) {
                after = taken.priority();
                continue;
            }
            long below = after;
            Long level = claim.session().queryLong(NEXT_PRIORITY, statement -> {
                statement.setString(1, claim.queue());
                statement.setLong(2, below);
            });
            if (level == null) {
                return;
            }
            after = level;
        }
    }

    /** How many rows a claim statement took, leased or failed, and the priority of the last. */
    private record Taken(int count, int priority) {
    }

    /**
     * Runs one claim statement and adds the rows it leased.
     *
     * @param level the priority above which a priority claim takes the next one's rows, or null for a plain claim
     * @return how many rows it took, leased or (with a budget) failed
     */
    private static Taken lease(Claim claim, String sql, int limit, @Nullable Long level, List<ClaimedRow> rows)
            throws SQLException {
        return claim.session().query(sql, statement -> {
            bindLease(claim, statement);
            statement.setString(4, claim.queue());
            statement.setInt(5, limit);
            if (level != null) {
                statement.setInt(6, claim.budget());
                statement.setLong(7, level);
            }
        }, result -> taken(result, claim.now(), rows));
    }

    /**
     * Leases the first due row of the most urgent priority whose key has a free slot (or that has none), among its
     * first {@code window}, and adds it when it was leased.
     *
     * @return how many rows it took (0 or 1), leased or (with a budget) failed
     */
    static int leaseFirstEligible(Claim claim, int perKey, int window, List<ClaimedRow> rows) throws SQLException {
        String sql = claim.budget() > 0 ? CLAIM_FIRST_ELIGIBLE_WITH_BUDGET : CLAIM_FIRST_ELIGIBLE;
        return claim.session().query(sql, statement -> {
            bindLease(claim, statement);
            statement.setString(4, claim.queue());
            statement.setLong(7, Long.MIN_VALUE);
            statement.setInt(8, window);
            statement.setInt(9, perKey);
        }, result -> taken(result, claim.now(), rows)).count();
    }

    /** Leases the given due rows, chosen by a claim under a per-key limit, and adds those it leased. */
    static void leaseChosen(Claim claim, List<Long> ids, List<ClaimedRow> rows) throws SQLException {
        claim.session().query(claim.budget() > 0 ? CLAIM_CHOSEN_WITH_BUDGET : CLAIM_CHOSEN, statement -> {
            bindLease(claim, statement);
            statement.setString(5, ids.toString()); // a JSON array, as json_each reads it
        }, result -> taken(result, claim.now(), rows));
    }

    /** Binds what every lease sets: the receipt prefix, the lease end, the time, and the budget when there is one. */
    private static void bindLease(Claim claim, PreparedStatement statement) throws SQLException {
        statement.setString(1, claim.receiptPrefix());
        statement.setLong(2, claim.leaseUntil());
        statement.setLong(3, claim.now());
        if (claim.budget() > 0) {
            statement.setInt(6, claim.budget());
        }
    }

    /** Reads the rows a claim statement returned, adding the leased ones (not those its budget failed). */
    private static Taken taken(ResultSet result, long now, List<ClaimedRow> rows) throws SQLException {
        int taken = 0;
        int priority = 0;
        while (result.next()) {
            taken++;
            priority = result.getInt(9);
            if (result.getInt(8) == RowStatus.FAILED) {
                continue;
            }
            rows.add(new ClaimedRow(result.getLong(1), result.getBytes(2), result.getInt(3), result.getString(4),
                    result.getLong(5), StoredHeaders.decode(result.getString(7)), result.getLong(6), now,
                    result.getInt(9), result.getString(10)));
        }
        return new Taken(taken, priority);
    }

    private static boolean anyExpired(Session session, String queue, long now) throws SQLException {
        Long any = session.queryLong(ANY_EXPIRED, statement -> {
            statement.setString(1, queue);
            statement.setLong(2, now);
        });
        return any != null && any != 0;
    }
}
