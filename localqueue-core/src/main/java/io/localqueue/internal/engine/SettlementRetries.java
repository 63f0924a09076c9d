package io.localqueue.internal.engine;

import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The settlements handed over without waiting whose transaction failed (the database out of reach, a disk that
 * failed a write), kept and tried again in the background until each one's lease ends: an outage shorter than the
 * lease then costs no second delivery. Pauses between attempts double from {@value #FIRST_PAUSE_MS} ms up to
 * {@value #MAX_PAUSE_MS} ms. A run of failures is logged once with the jobs it holds, then at most once every
 * {@value #REPORT_INTERVAL_MS} ms as counts, once more for each group given up at its lease's end, and once when
 * recording works again. Every method is called with the group commit's combiner lock held, or from its committer
 * thread to learn when to wake.
 */
final class SettlementRetries {

    /** The pause after the first failure in a row, doubling with each further one. */
    static final long FIRST_PAUSE_MS = 100;
    /** The longest pause between attempts. */
    static final long MAX_PAUSE_MS = 2_000;
    /** How often a run of failures is reported after its first. */
    static final long REPORT_INTERVAL_MS = 60_000;
    /** How many job ids a log line names before it only counts the rest. */
    static final int IDS_SHOWN = 20;

    private final Logger log;
    private final String location;
    private final LongSupplier nanoTime;
    private final List<GroupCommit.Change> waiting = new ArrayList<>();
    private long nextAttemptNanos;
    private int failuresInARow;
    private long runStartedNanos;
    private long reportedAtNanos;
    private int givenUp;

    SettlementRetries(Logger log, String location, LongSupplier nanoTime) {
        this.log = log;
        this.location = location;
        this.nanoTime = nanoTime;
    }

    /**
     * Keeps the changes of a failed transaction that may be tried again, and logs the failure if due.
     *
     * @param batch every change of the transaction
     * @param failure what the transaction threw
     * @return the changes not kept, which fail now
     */
    synchronized List<GroupCommit.Change> failed(List<GroupCommit.Change> batch, RuntimeException failure) {
        List<GroupCommit.Change> kept = new ArrayList<>();
        List<GroupCommit.Change> failing = new ArrayList<>();
        List<GroupCommit.Change> leaseEnded = new ArrayList<>();
        for (GroupCommit.Change change : batch) {
            if (failure instanceof QueueClosedException || !change.handedOver()) {
                failing.add(change);
            } else if (change.retryable()) {
                kept.add(change);
            } else {
                leaseEnded.add(change);
            }
        }
        long now = nanoTime.getAsLong();
        failuresInARow++;
        nextAttemptNanos = now + TimeUnit.MILLISECONDS.toNanos(
                Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS << Math.min(failuresInARow - 1, 16)));
        waiting.addAll(kept);
        if (failuresInARow == 1) {
            runStartedNanos = now;
            reportedAtNanos = now;
            log.warn("Recording {} settlement(s) in {} failed; {}: {}", batch.size(), location,
                    kept.isEmpty() ? "their callers are told" : "trying again until each one's lease ends ("
                            + describe(kept) + ")", failure.getMessage(), failure);
        } else if (now - reportedAtNanos >= TimeUnit.MILLISECONDS.toNanos(REPORT_INTERVAL_MS)) {
            reportedAtNanos = now;
            log.warn("Recording settlements in {} still fails: {} failed attempts in {} s, {} settlement(s) waiting, "
                    + "{} given up so far; the last: {}", location, failuresInARow, secondsSince(runStartedNanos),
                    waiting.size(), givenUp, failure.getMessage());
        }
        giveUp(leaseEnded, "whose leases ended while the database failed", "again");
        failing.addAll(leaseEnded);
        return failing;
    }

    /** Records a transaction that committed, logging the recovery after a run of failures. */
    synchronized void committed(int recordedLate) {
        if (failuresInARow == 0) {
            return;
        }
        log.info("Recording settlements in {} works again after {} failed attempt(s) in {} s; {} settlement(s) "
                + "recorded late, {} given up", location, failuresInARow, secondsSince(runStartedNanos), recordedLate,
                givenUp);
        failuresInARow = 0;
        givenUp = 0;
    }

    /**
     * Takes the kept changes due for another attempt, each stamped with its clock's time, and hands back those whose
     * lease ended meanwhile, which are given up.
     *
     * @param givenUpNow receives the changes given up
     * @return the changes to try again
     */
    synchronized List<GroupCommit.Change> due(List<GroupCommit.Change> givenUpNow) {
        if (waiting.isEmpty() || nanoTime.getAsLong() - nextAttemptNanos < 0) {
            return List.of();
        }
        List<GroupCommit.Change> retried = new ArrayList<>();
        for (Iterator<GroupCommit.Change> changes = waiting.iterator(); changes.hasNext(); ) {
            GroupCommit.Change change = changes.next();
            changes.remove();
            if (change.restampWithinLease()) {
                retried.add(change);
            } else {
                givenUpNow.add(change);
            }
        }
        giveUp(givenUpNow, "whose leases ended while the database failed", "again");
        return retried;
    }

    /**
     * Hands back every kept change, to be given up because the database closes.
     *
     * @return the changes
     */
    synchronized List<GroupCommit.Change> drain() {
        List<GroupCommit.Change> left = new ArrayList<>(waiting);
        waiting.clear();
        giveUp(left, "because it closed while the database failed", "again after their leases");
        return left;
    }

    /**
     * Returns how long the committer may sleep before the next attempt is due.
     *
     * @return nanoseconds, or {@link Long#MAX_VALUE} when nothing waits
     */
    synchronized long nanosUntilDue() {
        return waiting.isEmpty() ? Long.MAX_VALUE : Math.max(0, nextAttemptNanos - nanoTime.getAsLong());
    }

    /**
     * Returns the failure handed to the callers of changes given up.
     *
     * @param why why they were given up
     * @return the failure
     */
    static RuntimeException givenUp(String why) {
        return new LocalQueueException("the settlement was not recorded: " + why);
    }

    /** Counts and logs, in one line naming their jobs, settlements given up; nothing for none. */
    private void giveUp(List<GroupCommit.Change> changes, String why, String when) {
        if (changes.isEmpty()) {
            return;
        }
        givenUp += changes.size();
        log.warn("Gave up recording {} settlement(s) in {} {} ({}); those jobs will be delivered {}", changes.size(),
                location, why, describe(changes), when);
    }

    private String secondsSince(long startNanos) {
        long tenths = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - startNanos) / 100;
        return tenths / 10 + "." + tenths % 10;
    }

    private static String describe(List<GroupCommit.Change> changes) {
        StringJoiner ids = new StringJoiner(", ");
        int shown = 0;
        @Nullable String queue = null;
        boolean oneQueue = true;
        for (GroupCommit.Change change : changes) {
            String of = change.settlement().queue();
            oneQueue &= queue == null || queue.equals(of);
            queue = of;
            if (shown++ < IDS_SHOWN) {
                ids.add(Long.toString(change.settlement().id()));
            }
        }
        String more = changes.size() > IDS_SHOWN ? " and " + (changes.size() - IDS_SHOWN) + " more" : "";
        return (oneQueue && queue != null ? "queue '" + queue + "', " : "") + "job(s) " + ids + more;
    }
}
