package io.localqueue.benchmark;

import io.localqueue.IntegrityCheckResult;
import io.localqueue.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a soak run did and found: its figures (duration, load, faults, jobs, duplicate executions) and whether every
 * invariant held.
 *
 * @param profile the profile
 * @param seed the fault schedule's seed
 * @param faultNanos how long the fault phase ran (producers putting)
 * @param drainNanos how long the drain after it took
 * @param totalNanos the whole run, from the first child's start
 * @param producerKills producers killed with {@code kill -9}
 * @param consumerKills consumers killed with {@code kill -9}
 * @param lockHolds holds of the write lock by a plain JDBC connection
 * @param lockHeld their total time
 * @param lockLongest the longest of them
 * @param lockRefused holds that could not take the lock in time
 * @param afterDrain the queue's counts when the drain ended
 * @param check the ledger check
 * @param integrity the file's integrity check at the end
 * @param childFailures children that died by themselves or did not stop
 * @param load the host's one-minute load average at the start and the end
 */
record SoakResult(SoakProfile profile, long seed, long faultNanos, long drainNanos, long totalNanos,
                  int producerKills, int consumerKills, int lockHolds, Duration lockHeld, Duration lockLongest,
                  int lockRefused, QueueStats afterDrain, SoakCheck check, IntegrityCheckResult integrity,
                  List<String> childFailures, Report.LoadAverage load) {

    /** Every broken invariant; empty when the run passed. */
    List<String> violations() {
        List<String> broken = new ArrayList<>(check.violations());
        if (!integrity.ok()) {
            broken.add("integrity check failed: " + integrity.messages());
        }
        broken.addAll(childFailures);
        return broken;
    }

    boolean passed() {
        return violations().isEmpty();
    }

    /** The figures and the verdict, as printed. */
    String render() {
        SoakCheck c = check;
        double faultSeconds = faultNanos / 1e9;
        double settleSeconds = (faultNanos + drainNanos) / 1e9;
        long handlerFailures = count(c.decisions, SoakConsumerChild.NACK) + count(c.decisions, SoakConsumerChild.POISON)
                + count(c.decisions, SoakConsumerChild.FAIL);
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "localqueue soak, profile %s: %d producer and %d consumer JVMs "
                        + "(Worker concurrency %d), lease %d s, %d retries, %s, %d puts/s per producer, seed %d",
                profile.name(), profile.producers(), profile.consumers(), profile.concurrency(),
                profile.lease().toSeconds(), profile.maxRetries(), SoakQueue.DURABILITY, profile.putsPerSecond(),
                seed));
        lines.add(String.format(Locale.ROOT, "Host: %d CPUs, one-minute load average %.1f at the start, %.1f at "
                + "the end", Runtime.getRuntime().availableProcessors(), load.atStart(), load.atEnd()));
        lines.add("Duration: " + SoakRun.seconds(faultNanos) + " of faults, " + SoakRun.seconds(drainNanos)
                + " of drain, " + SoakRun.seconds(totalNanos) + " in all");
        lines.add(String.format(Locale.ROOT, "Load held: %s puts (%.1f/s over the fault phase), %s acks "
                        + "(%.1f/s over faults and drain)", n(c.puts), c.puts / faultSeconds, n(c.acked),
                c.acked / settleSeconds));
        lines.add(String.format(Locale.ROOT, "Faults injected: %d kill -9 (producer %d, consumer %d); %d write-lock "
                        + "holds (%s in all, longest %s, %d could not take the lock); %s handler failures "
                        + "(nack %s, poison %s, fail %s); %s lease overruns (slow handlers; %s results discarded, "
                        + "%s acked)",
                producerKills + consumerKills, producerKills, consumerKills, lockHolds,
                SoakRun.seconds(lockHeld.toNanos()),
                SoakRun.seconds(lockLongest.toNanos()), lockRefused, n(handlerFailures),
                n(count(c.decisions, SoakConsumerChild.NACK)), n(count(c.decisions, SoakConsumerChild.POISON)),
                n(count(c.decisions, SoakConsumerChild.FAIL)), n(count(c.decisions, SoakConsumerChild.SLOW)),
                n(count(c.outcomes, "X")), n(c.lateAcks)));
        lines.add("Jobs tracked: " + n(c.tracked) + ": acked " + n(c.acked) + ", dead letters " + n(c.deadLetters)
                + " " + c.reasons + ", pending " + n(c.pending) + " (queue after the drain: " + afterDrain + ")");
        lines.add("Lost: " + n(c.lost));
        lines.add("Duplicated rows: " + n(c.duplicatedRows));
        lines.add("Acknowledged twice: " + n(c.ackedTwice) + " (second acks of an acked delivery: "
                + n(c.secondAcksRefused) + " refused, " + n(c.secondAcksAccepted) + " accepted)");
        lines.add("Attempts over budget: " + n(c.overBudget + c.startsOverBudget) + "; receipts repeated: "
                + n(c.repeatedReceipts) + "; deliveries executed twice: " + n(c.repeatedDeliveries));
        lines.add("Stored without a ledger line: " + n(c.untracked) + "; ledger conflicts: " + n(c.ledgerConflicts));
        lines.add("Executions started: " + n(c.executions) + ", of jobs that ended acked " + n(c.executionsOfAcked)
                + "; outcomes logged " + c.outcomes);
        lines.add(String.format(Locale.ROOT, "Duplicate executions: %s = (executions of acked jobs − acked jobs) / "
                        + "acked jobs = %s / %s; after a kill -9 %s (%s), after a lost lease %s, after a handler "
                        + "failure %s", percent(c.extraExecutions, c.acked), n(c.extraExecutions), n(c.acked),
                n(c.extraAfterKill), percent(c.extraAfterKill, c.acked), n(c.extraAfterLostLease),
                n(c.extraAfterHandlerFailure)));
        lines.add("Integrity: " + (integrity.ok() ? "ok" : "FAILED " + integrity.messages()));
        List<String> broken = violations();
        lines.add(broken.isEmpty() ? "Invariants: all hold"
                : "Invariants: FAILED: " + broken.stream().collect(Collectors.joining("; ")));
        return String.join(System.lineSeparator(), lines);
    }

    private static long count(Map<String, Long> counts, String key) {
        return counts.getOrDefault(key, 0L);
    }

    private static String n(long value) {
        return Format.grouped(value);
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "n/a" : Format.percent(part / (double) whole);
    }
}
