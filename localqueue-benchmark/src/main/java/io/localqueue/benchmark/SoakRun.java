package io.localqueue.benchmark;

import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One soak run: producer and consumer JVMs on one queue file while a {@link FaultPlan} kills them with
 * {@code kill -9} (each killed process is restarted) and a {@link WriteLockHolder} takes the write lock from
 * outside the library; the consumers' handlers fail, and outlive their leases, by chance. After the fault phase the
 * producers stop, the consumers drain the queue, and a {@link SoakCheck} holds the ledgers and logs against the file.
 */
final class SoakRun {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);
    private static final long DRAIN_POLL_MILLIS = 250;

    private SoakRun() {
    }

    /**
     * Runs the profile in {@code work}, an empty directory.
     *
     * @param seed the seed of the fault schedule
     * @param progress where progress lines go
     */
    static SoakResult execute(SoakProfile profile, Path work, long seed, Consumer<String> progress)
            throws Exception {
        Path directory = Files.createDirectories(work.resolve("queue"));
        Path logs = Files.createDirectories(work.resolve("logs"));
        Path scratch = Files.createDirectories(work.resolve("scratch"));
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        SoakQueue.open(directory, profile).close();
        FaultPlan plan = new FaultPlan(seed, profile);
        double loadAtStart = HostInfo.loadAverage();
        long start = System.nanoTime();
        try (SoakFleet fleet = new SoakFleet(profile, directory, logs, scratch);
             WriteLockHolder lock = new WriteLockHolder(file)) {
            fleet.startAll();
            long faultsFrom = System.nanoTime();
            injectFaults(profile, plan, fleet, lock, progress);
            long faultsNanos = System.nanoTime() - faultsFrom;
            fleet.replaceTheDead();
            fleet.stopProducers();
            lock.close();
            long drainFrom = System.nanoTime();
            QueueStats left = drain(directory, profile);
            fleet.stopConsumers();
            long drainNanos = System.nanoTime() - drainFrom;
            progress.accept("fault phase over; drained in " + seconds(drainNanos) + ", checking the ledgers");

            IntegrityCheckResult integrity;
            try (SimpleQueue<String> queue = SoakQueue.open(directory, profile)) {
                integrity = queue.checkIntegrity();
            }
            SoakCheck check = SoakCheck.of(file, SoakQueue.NAME, profile.maxRetries() + 1, fleet.files(true),
                    fleet.files(false));
            return new SoakResult(profile, seed, faultsNanos, drainNanos, System.nanoTime() - start,
                    kills(fleet.producers()), kills(fleet.consumers()), lock.holds(), lock.held(), lock.longest(),
                    lock.refused(), left, check, integrity, List.copyOf(fleet.failures()),
                    new Report.LoadAverage(loadAtStart, HostInfo.loadAverage()));
        }
    }

    private static void injectFaults(SoakProfile profile, FaultPlan plan, SoakFleet fleet, WriteLockHolder lock,
                                     Consumer<String> progress) throws Exception {
        long end = System.nanoTime() + profile.duration().toNanos();
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        while (true) {
            long pause = plan.nextPause().toNanos();
            long now = System.nanoTime();
            if (now + pause >= end) {
                Thread.sleep(Math.max(0, (end - now) / 1_000_000)); // the fault phase runs for its duration
                return;
            }
            Thread.sleep(pause / 1_000_000); // the pause between two faults
            fleet.replaceTheDead();
            switch (plan.nextKind()) {
                case KILL_PRODUCER -> victim(plan, fleet.producers()).killAndRestart(plan.restartPause());
                case KILL_CONSUMER -> victim(plan, fleet.consumers()).killAndRestart(plan.restartPause());
                case HOLD_WRITE_LOCK -> lock.hold(plan.lockHold());
            }
            if (System.nanoTime() >= nextProgress) {
                nextProgress += PROGRESS_EVERY.toNanos();
                progress.accept(String.format(Locale.ROOT, "%s left: kills producer %d, consumer %d; lock holds %d",
                        seconds(end - System.nanoTime()), kills(fleet.producers()), kills(fleet.consumers()),
                        lock.holds()));
            }
        }
    }

    private static SoakFleet.Slot victim(FaultPlan plan, List<SoakFleet.Slot> slots) {
        return slots.get(plan.victim(slots.size()));
    }

    /** Waits until no job is ready or leased, or the drain timeout passes; returns the counts then. */
    private static QueueStats drain(Path directory, SoakProfile profile) throws InterruptedException {
        long deadline = System.nanoTime() + profile.drainTimeout().toNanos();
        try (SimpleQueue<String> queue = SoakQueue.open(directory, profile)) {
            QueueStats stats = queue.stats();
            while (stats.ready() + stats.processing() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(DRAIN_POLL_MILLIS); // polls the counts, as MultiprocessScenario does
                stats = queue.stats();
            }
            return stats;
        }
    }

    private static int kills(List<SoakFleet.Slot> slots) {
        return slots.stream().mapToInt(SoakFleet.Slot::kills).sum();
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
