package io.localqueue.internal.store;

import io.localqueue.QueueLimit;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The claim of a queue with limits, the same on every store: the room the queue-wide limit and the rate limit leave,
 * then, under a per-key limit, a walk of the due jobs in claim order that leases the jobs whose key has a free slot
 * and holds the others ({@link HeldPriority}), so that a claim never walks a held job again; a held key gets as many
 * jobs back as it has free slots at the start of every claim. The slot is the lease: every count is of leased rows,
 * read inside the claim's transaction, so an acknowledgement, a failure or an expired lease frees its slot by itself.
 */
public final class LimitedClaim {

    /**
     * How many candidates beyond the room a walk reads at first, so that a few held ones cost no second read; each
     * read that holds jobs doubles it.
     */
    private static final int SPARE_CANDIDATES = 4;

    /**
     * About the most jobs one claim holds: a key with a long backlog in front is held in steps, the claim's transaction
     * stays short, and the next claim, at once, carries on.
     */
    static final int MOST_HELD_PER_CLAIM = 2_000;

    private LimitedClaim() {
    }

    /**
     * A due job the walk looks at: its id, its priority, its key (null for none) and how many jobs of its key were
     * leased when it was read (0 without a key).
     */
    public record Candidate(long id, int priority, @Nullable String key, int leasedOfKey) {
    }

    /**
     * A key with held jobs.
     *
     * @param key the concurrency key
     * @param leased how many of its jobs are leased
     */
    public record HeldKey(String key, int leased) {
    }

    /** What a store does for a limited claim, inside the claim's transaction. */
    public interface Steps {

        /** How many of the queue's jobs are leased. */
        int leased() throws SQLException;

        /**
         * How many claims the rate log holds in the period before the claim (a store may have read it with the
         * controls): the running total of its last entry less that of the last entry at or before the period's start
         * (or, when none is, less the total before its first entry).
         */
        int claimsInPeriod() throws SQLException;

        /** When the rate log's first entry after {@code cut} was made: the time its claims leave the period from. */
        long firstClaimAfter(long cut) throws SQLException;

        /** When the rate log's first entry was made, as the claim read it with the controls; MAX_VALUE for none. */
        long firstLoggedClaim();

        /** Adds claims to the rate log at this time (or at its last entry's, should the clock have gone back). */
        void logClaims(long at, int count) throws SQLException;

        /** Deletes the rate log's entries before its last one at or before {@code cut}, which no count needs. */
        void trimClaims(long cut) throws SQLException;

        /** Leases up to {@code limit} due jobs in claim order, as an unlimited claim would, adding them to {@code rows}. */
        void claimInOrder(int limit, List<ClaimedRow> rows) throws SQLException;

        /** Makes every job of the queue carry a priority, so that the walk by priority sees it. */
        void walkByPriority() throws SQLException;

        /** The keys that have held jobs, each with how many of its jobs are leased, in one statement. */
        List<HeldKey> heldKeys() throws SQLException;

        /** Gives back up to {@code count} of the key's held jobs, first in claim order. */
        void release(String key, int count) throws SQLException;

        /** The most urgent priority above {@code after} with ready jobs that are not held, or null. */
        @Nullable Integer nextLevel(long after) throws SQLException;

        /**
         * Up to {@code limit} due jobs, by due time then id, of the most urgent priority above {@code after} with ready
         * jobs that are not held (found in the same statement), each with its key's leased jobs; none when that
         * priority has no due job, or there is no such priority, which {@link #nextLevel} tells apart.
         */
        List<Candidate> candidates(long after, int limit) throws SQLException;

        /**
         * Leases, in one statement, the first due job of the most urgent priority with ready jobs that are not held
         * whose key has fewer than {@code perKey} leased jobs (or that has no key), among the first {@code window} of
         * them: the job the walk would lease first for a claim of one, without holding any. A store without such a
         * statement takes nothing here and the walk does it all.
         *
         * @return how many jobs it took (0 or 1), leased or (with a budget) failed
         */
        default int leaseFirstEligible(int perKey, int window, List<ClaimedRow> rows) throws SQLException {
            return 0;
        }

        /** Leases the given due jobs, adding those leased to {@code rows}. */
        void lease(List<Long> ids, List<ClaimedRow> rows) throws SQLException;

        /** Holds the given due jobs. */
        void hold(List<Long> ids) throws SQLException;
    }

    /**
     * Leases up to {@code limit} due jobs within the limits.
     *
     * @param now the claim time
     * @return why due jobs were left, or null when none was held back
     */
    public static @Nullable ClaimHold claim(Steps steps, QueueLimits limits, int limit, long now,
                                            List<ClaimedRow> rows) throws SQLException {
        int room = limit;
        QueueLimit tightest = null;
        if (limits.maxConcurrent() > 0) {
            int free = limits.maxConcurrent() - steps.leased();
            if (free < room) {
                room = free;
                tightest = QueueLimit.MAX_CONCURRENT;
            }
        }
        long cut = now - limits.ratePeriodMillis();
        if (limits.ratePermits() > 0) {
            int left = limits.ratePermits() - steps.claimsInPeriod();
            if (left < room) {
                room = left;
                tightest = QueueLimit.RATE_LIMIT;
            }
        }
        if (room <= 0) {
            return tightest == QueueLimit.RATE_LIMIT
                    ? new ClaimHold(tightest, steps.firstClaimAfter(cut) + limits.ratePeriodMillis())
                    : new ClaimHold(QueueLimit.MAX_CONCURRENT, Long.MAX_VALUE);
        }
        int before = rows.size();
        Walk walk = Walk.NOTHING_HELD;
        if (limits.maxConcurrentPerKey() > 0) {
            walk = claimByKey(steps, limits.maxConcurrentPerKey(), room, rows);
        } else {
            steps.claimInOrder(room, rows);
        }
        int taken = rows.size() - before;
        if (limits.ratePermits() > 0 && taken > 0) {
            steps.logClaims(limits.rateLogTime(now), taken);
        }
        if (limits.ratePermits() > 0 && steps.firstLoggedClaim() < cut - limits.ratePeriodMillis()) {
            steps.trimClaims(cut); // a period's entries at a time, once they are a period older than any count needs
        }
        if (taken > 0 || walk == Walk.NOTHING_HELD) {
            return null;
        }
        return new ClaimHold(QueueLimit.MAX_CONCURRENT_PER_KEY, walk == Walk.MORE_TO_WALK ? now : Long.MAX_VALUE);
    }

    /** How a walk under a per-key limit ended. */
    private enum Walk {
        /** No job was held, nor any key found full. */
        NOTHING_HELD,
        /** Jobs were held, or a key with held jobs is full. */
        HELD,
        /** The claim held as many jobs as one may, and more due jobs are left to walk. */
        MORE_TO_WALK
    }

    /**
     * Walks the due jobs by priority, due time and id, leasing those whose key has a free slot and holding the others;
     * the reads widen while they find only held jobs.
     */
    private static Walk claimByKey(Steps steps, int perKey, int room, List<ClaimedRow> rows) throws SQLException {
        steps.walkByPriority();
        boolean held = false;
        for (HeldKey key : steps.heldKeys()) {
            int free = perKey - key.leased();
            if (free > 0) {
                steps.release(key.key(), free);
            } else {
                held = true;
            }
        }
        int start = rows.size();
        if (room == 1 && steps.leaseFirstEligible(perKey, 1 + SPARE_CANDIDATES, rows) > 0 && rows.size() > start) {
            return held ? Walk.HELD : Walk.NOTHING_HELD; // a job it failed instead (its budget spent) leaves the walk
        }
        Map<String, Integer> leased = new HashMap<>(); // from the candidates, which see the leases just taken
        int heldNow = 0;
        int spare = SPARE_CANDIDATES;
        long after = Long.MIN_VALUE;
        while (rows.size() - start < room) {
            if (heldNow >= MOST_HELD_PER_CLAIM) {
                return Walk.MORE_TO_WALK;
            }
            int wanted = room - (rows.size() - start);
            int window = wanted + spare;
            List<Candidate> candidates = steps.candidates(after, window);
            if (candidates.isEmpty()) {
                @Nullable Integer level = steps.nextLevel(after);
                if (level == null) {
                    break;
                }
                after = level; // a priority whose ready jobs are all not yet due
                continue;
            }
            List<Long> lease = new ArrayList<>();
            List<Long> hold = new ArrayList<>();
            for (Candidate candidate : candidates) {
                if (lease.size() == wanted) {
                    break;
                }
                if (candidate.key() == null) {
                    lease.add(candidate.id());
                    continue;
                }
                int running = leased.computeIfAbsent(candidate.key(), key -> candidate.leasedOfKey());
                if (running < perKey) {
                    leased.put(candidate.key(), running + 1);
                    lease.add(candidate.id());
                } else {
                    hold.add(candidate.id());
                }
            }
            if (!lease.isEmpty()) {
                steps.lease(lease, rows);
            }
            if (!hold.isEmpty()) {
                steps.hold(hold);
                heldNow += hold.size();
                held = true;
                spare = Math.min(spare * 2, MOST_HELD_PER_CLAIM);
            }
            if (lease.size() < wanted && candidates.size() < window) {
                after = candidates.get(0).priority(); // every due job of this priority was taken or held
            }
        }
        return held ? Walk.HELD : Walk.NOTHING_HELD;
    }
}
