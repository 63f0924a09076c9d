package io.localqueue.internal.engine;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueLimit;
import io.localqueue.internal.store.ClaimBatch;
import io.localqueue.internal.store.ClaimHold;
import io.localqueue.internal.store.ClaimProbe;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.ExpiredLease;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.internal.time.Backoff;
import io.localqueue.internal.time.Deadline;
import io.localqueue.internal.time.Durations;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The claims of one queue: a read decides whether a claim is worth the write lock, a claim transaction leases the
 * due jobs (reclaiming expired leases first when one may have expired, and the leases of processes that ended when
 * the {@link HolderWatch} found some), and a call with time left sleeps until the queue changes, the next job falls
 * due or, while other consumers hold leases, the next look for ended holders. Consumers racing for one new job stop at the read instead of queueing for
 * the lock only to find nothing; blocking claims also take this process's turn first, so the processes consuming a
 * queue wait one at a time instead of every one of them waking on every commit.
 */
final class Claims {

    /** Pauses of a claim that lost the write lock: short, since a read decides whether to try again. */
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final QueueStore store;
    private final String queue;
    private final long leaseMillis;
    private final DurabilityMode durability;
    private final Clock clock;
    private final ChangeWaits waits;
    private final Runnable ensureOpen;
    private final Consumer<List<ExpiredLease>> reclaimed;
    private final Consumer<List<ExpiredLease>> abandoned;
    private final LeaseExpiryWatch leaseExpiry = new LeaseExpiryWatch();
    private final HolderWatch holders;
    private final ClaimTurnWaits turns;
    private final int claimBudget;
    /** After a claim found work, the next claim skips the probe: the queue most likely has more. */
    private volatile boolean lastClaimFound;
    /** Whether the last read before a claim found the queue paused for every process. */
    private volatile boolean pausedAtLastLook;
    /** Why the last claim left due jobs, when the queue's limits made it; null when they did not. */
    private volatile @Nullable ClaimHold lastHold;
    /** How many claims each limit held back, by {@link QueueLimit} ordinal. */
    private final LongAdder[] holds = newCounters();

    /**
     * Creates the claims of one queue.
     *
     * @param reclaimed told of the expired leases a claim took back
     * @param abandoned told of the leases of ended processes a claim took back
     */
    Claims(QueueStore store, String queue, long leaseMillis, DurabilityMode durability, Clock clock,
           ChangeWaits waits, Runnable ensureOpen, Consumer<List<ExpiredLease>> reclaimed,
           Consumer<List<ExpiredLease>> abandoned, int claimBudget) {
        this.store = store;
        this.claimBudget = claimBudget;
        this.queue = queue;
        this.leaseMillis = leaseMillis;
        this.durability = durability;
        this.clock = clock;
        this.waits = waits;
        this.ensureOpen = ensureOpen;
        this.reclaimed = reclaimed;
        this.abandoned = abandoned;
        this.holders = new HolderWatch(store, queue);
        this.turns = new ClaimTurnWaits(queue, store.claimTurn(queue), ClaimTurnWaits.STUCK_TURN_NANOS);
    }

    /**
     * Claims up to {@code limit} due jobs in one transaction, waiting up to {@code timeoutNanos} for at least one.
     *
     * @param timeoutNanos how long to wait; zero makes one attempt that never waits for another writer's lock
     * @return the leased rows in claim order; empty when the timeout passed or {@code cancelled} turned true
     * @throws QueueEmptyException for a zero timeout that found the write lock taken
     */
    List<ClaimedRow> claim(long timeoutNanos, int limit, BooleanSupplier cancelled) {
        if (timeoutNanos == 0) {
            return claimInTurn(0, Deadline.after(0), limit, cancelled);
        }
        Deadline deadline = Deadline.after(timeoutNanos);
        ClaimTurnWaits.Entry entry = turns.enter(deadline, cancelled);
        if (entry == ClaimTurnWaits.Entry.MISSED) {
            return List.of();
        }
        try {
            return claimInTurn(timeoutNanos, deadline, limit, cancelled);
        } finally {
            turns.exit(entry);
        }
    }

    private List<ClaimedRow> claimInTurn(long timeoutNanos, Deadline deadline, int limit, BooleanSupplier cancelled) {
        boolean nowait = timeoutNanos == 0;
        Backoff contention = new Backoff(FIRST_PAUSE_NANOS, MAX_PAUSE_NANOS, deadline.remainingNanos());
        boolean contended = false;
        List<String> ended = List.of();
        while (!cancelled.getAsBoolean()) {
            if (contended && deadline.remainingNanos() == 0) {
                return List.of(); // the deadline came while another process held the write lock
            }
            ensureOpen.run();
            long seen = waits.version();
            if (ended.isEmpty()) {
                ended = holders.endedIfDue();
            }
            long now = clock.millis();
            @Nullable ClaimProbe probe = lastClaimFound ? null : store.probe(queue);
            if (probe != null) {
                pausedAtLastLook = probe == ClaimProbe.PAUSED;
            }
            if (probe == null || probe.claimable(now) || !ended.isEmpty()) {
                if (probe != null) {
                    leaseExpiry.forget();
                }
                List<ClaimedRow> rows = claimNow(nowait, limit, contention, deadline, ended);
                if (rows == null) {
                    contended = true;
                    continue;
                }
                ended = List.of();
                if (!rows.isEmpty()) {
                    return rows;
                }
                ClaimHold hold = lastHold;
                if (hold != null && hold.until() <= now) {
                    continue; // the claim held as many jobs as one may: the next carries on at once
                }
                if (probe == null && hold == null) {
                    continue; // the queue ran dry since the last claim: look with a read before waiting
                }
                if (probe == null && !nowait) {
                    probe = store.probe(queue); // a limit held due jobs back: read only when a lease ends
                    pausedAtLastLook = probe == ClaimProbe.PAUSED;
                }
            }
            if (nowait || !waits.awaitChange(seen, deadline, millisUntilNextLook(probe, lastHold, now))) {
                return List.of();
            }
        }
        return List.of();
    }

    /**
     * Tells whether the last read before a claim found the queue paused for every process, so that an empty-handed
     * claim can say why without another read.
     *
     * @return true when that read saw the pause
     */
    boolean pausedAtLastLook() {
        return pausedAtLastLook;
    }

    /**
     * Tells why the last claim left due jobs, when the queue's limits made it, so that an empty-handed claim can say
     * so.
     *
     * @return the hold, or null when no limit held the last claim back
     */
    @Nullable ClaimHold lastHold() {
        return lastHold;
    }

    /**
     * Counts the claims a limit held back, in this process.
     *
     * @param control the limit
     * @return how many claims it held back since this queue object opened
     */
    long holds(QueueLimit control) {
        return holds[control.ordinal()].sum();
    }

    /**
     * How long a claim may wait for a change: until a job falls due or a lease ends, and, while the queue has leases
     * that may be other processes', no longer than the next look for ended holders. When the queue's limits held the
     * last claim back, its due jobs wait for the hold's end (the rate limit's next permit) or a lease's, not for a
     * job to fall due: a commit that settles a lease ends the wait sooner.
     */
    private long millisUntilNextLook(ClaimProbe probe, @Nullable ClaimHold hold, long now) {
        long next = hold == null ? probe.millisUntilNextEvent(now)
                : Math.max(0, Math.min(hold.until() == Long.MAX_VALUE ? Long.MAX_VALUE : hold.until() - now,
                        probe.earliestLeaseEnd() == null ? Long.MAX_VALUE : probe.earliestLeaseEnd() - now));
        return probe.earliestLeaseEnd() == null ? next : Math.min(next, holders.millisUntilDue());
    }

    private static LongAdder[] newCounters() {
        LongAdder[] counters = new LongAdder[QueueLimit.values().length];
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new LongAdder();
        }
        return counters;
    }

    /**
     * Makes one claim attempt; when another connection holds the write lock it returns null after a short pause
     * (none once the deadline passed), so the caller looks again with a read before trying once more. Neither the
     * wait in the writers' line nor the pauses outlast the deadline.
     */
    private @Nullable List<ClaimedRow> claimNow(boolean nowait, int limit, Backoff contention, Deadline deadline,
                                                List<String> ended) {
        ClaimBatch claim;
        List<List<ExpiredLease>> takenBack = new ArrayList<>(1);
        try {
            WriteOptions options = nowait ? WriteOptions.nowait("claim", durability)
                    : WriteOptions.onceInLine("claim", durability,
                            Math.min(deadline.remainingNanos(), WriteOptions.WRITE_BUDGET_NANOS));
            claim = store.write(options, ensureOpen, writes -> {
                long now = clock.millis();
                takenBack.clear();
                if (!ended.isEmpty()) {
                    takenBack.add(writes.reclaimAbandoned(queue, ended, now, claimBudget));
                }
                boolean lookForExpired = leaseExpiry.due(now);
                ClaimBatch done = writes.claim(new ClaimRequest(queue, now,
                        Durations.addToTimestamp(now, leaseMillis, "lease"), limit, lookForExpired, claimBudget));
                if (lookForExpired) {
                    leaseExpiry.looked(now, !done.reclaimed().isEmpty());
                }
                return done;
            });
        } catch (DatabaseBusyException busy) {
            if (nowait) {
                throw new QueueEmptyException("queue '" + queue + "' is temporarily unavailable: " + busy.getMessage(),
                        busy);
            }
            if (deadline.remainingNanos() > 0) {
                try {
                    contention.pause(store.location(), busy);
                } catch (DatabaseBusyException spent) {
                    // The deadline came while the lock was taken: the caller returns empty-handed.
                }
            }
            return null;
        }
        contention.reset();
        if (!takenBack.isEmpty() && !takenBack.get(0).isEmpty()) {
            abandoned.accept(takenBack.get(0));
        }
        if (!claim.reclaimed().isEmpty()) {
            reclaimed.accept(claim.reclaimed());
        }
        lastClaimFound = !claim.rows().isEmpty();
        ClaimHold hold = claim.hold();
        lastHold = hold;
        if (hold != null) {
            holds[hold.limit().ordinal()].increment();
        }
        return claim.rows();
    }

}
