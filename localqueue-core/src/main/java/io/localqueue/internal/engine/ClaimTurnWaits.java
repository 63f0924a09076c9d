package io.localqueue.internal.engine;

import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.ClaimTurn;
import io.localqueue.internal.time.Deadline;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the blocking claims of one queue wait for this process's turn: within their deadline, and, when another
 * process has kept the turn from this one for far longer than any claim holds it (one wait for work plus one write),
 * not at all: that process hangs while holding it (a dead one lets go), so claims go ahead as they would without
 * turns until one comes again.
 */
final class ClaimTurnWaits {

    private static final Logger log = LoggerFactory.getLogger(ClaimTurnWaits.class);

    /** How long claims wait for a turn another process keeps before they go ahead without it. */
    static final long STUCK_TURN_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final String queue;
    private final ClaimTurn turn;
    private final long stuckNanos;
    /** When a claim first missed the turn since one last had it; 0 while turns come. */
    private volatile long missedSince;
    private volatile boolean warned;

    ClaimTurnWaits(String queue, ClaimTurn turn, long stuckNanos) {
        this.queue = queue;
        this.turn = turn;
        this.stuckNanos = stuckNanos;
    }

    /**
     * Waits for the turn.
     *
     * @param deadline the claim's deadline
     * @param cancelled ends the wait when true
     * @return how the claim stands; pass it to {@link #exit}
     * @throws LocalQueueException when the thread was interrupted while waiting
     */
    Entry enter(Deadline deadline, BooleanSupplier cancelled) {
        long started = System.nanoTime();
        boolean taken;
        try {
            taken = turn.enter(Math.min(deadline.remainingNanos(), stuckNanos), cancelled);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LocalQueueException("interrupted while waiting on queue '" + queue + "'", interrupted);
        }
        if (taken) {
            missedSince = 0;
            warned = false;
            return Entry.TAKEN;
        }
        long since = missedSince;
        if (since == 0) {
            since = started;
            missedSince = started;
        }
        if (System.nanoTime() - since < stuckNanos || cancelled.getAsBoolean()) {
            return Entry.MISSED;
        }
        if (!warned) {
            warned = true;
            log.warn("Claims from queue '{}' go ahead without waiting their turn: another process has kept it for "
                    + "over {} ms", queue, TimeUnit.NANOSECONDS.toMillis(stuckNanos));
        }
        return Entry.SKIPPED;
    }

    /** Gives the turn back when {@code entry} took it. */
    void exit(Entry entry) {
        if (entry == Entry.TAKEN) {
            turn.exit();
        }
    }

    /** How a blocking claim stands with its turn. */
    enum Entry {
        /** It holds the turn and gives it back when it returns. */
        TAKEN,
        /** It goes ahead without: the turn's holder hangs. */
        SKIPPED,
        /** The deadline came, or the claim was cancelled, before the turn. */
        MISSED
    }
}
